/**
 * Whether `test` holds for some entry (key and value) at any depth of a value: a request body, which
 * may nest thousands of levels deep, so the walk keeps its own stack instead of recursing.
 */
export function someEntry(value: unknown, test: (key: string, value: unknown) => boolean): boolean {
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (typeof v !== 'object' || v === null) continue;
    for (const [key, inner] of Object.entries(v)) {
      if (test(key, inner)) return true;
      if (typeof inner === 'object' && inner !== null) todo.push(inner);
    }
  }
  return false;
}
