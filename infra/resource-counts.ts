import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Prints the resource count of every template in a cloud assembly (`npm run synth` runs it after
 * `cdk synth`): CloudFormation refuses a template of more than 500, and test/infra/limits.test.ts holds
 * each at 400 or fewer.
 */
export const CLOUDFORMATION_MAX_RESOURCES = 500;

export function resourceCounts(dir: string): Array<{ template: string; resources: number }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.template.json'))
    .sort()
    .map((f) => ({
      template: f,
      resources: Object.keys(
        (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { Resources?: object }).Resources ?? {},
      ).length,
    }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'cdk.out';
  for (const { template, resources } of resourceCounts(dir))
    console.log(`${String(resources).padStart(4)} / ${CLOUDFORMATION_MAX_RESOURCES}  ${template}`);
}
