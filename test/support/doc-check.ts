/** Placeholder until the /doc response checker lands: replaced by the generated-document check. */
export async function checkAgainstDoc(_base: string, _method: string, _path: string, _reply: unknown): Promise<void> {}
