import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A CloudFormation resource as a template holds it. */
export interface CfnResourceJson {
  Type: string;
  Properties: Record<string, any>;
}

/** A template of a synthesized cloud assembly: the stack's or a nested stack's. */
export interface AssemblyTemplate {
  file: string;
  resources: Record<string, CfnResourceJson>;
}

/** A function as the assembly would deploy it: its template, code directory, handler and settings. */
export interface AssemblyFunction {
  template: AssemblyTemplate;
  logicalId: string;
  name: string;
  /** The module Lambda loads (`index.handler` → `<asset dir>/index.mjs`) and its export. */
  module: string;
  exportName: string;
  environment: Record<string, unknown>;
  roleId: string;
}

/** Every template written into a cloud assembly directory (`cdk.out`). */
export function assemblyTemplates(dir: string): AssemblyTemplate[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.template.json'))
    .map((file) => ({
      file,
      resources: (
        JSON.parse(readFileSync(join(dir, file), 'utf8')) as { Resources: AssemblyTemplate['resources'] }
      ).Resources,
    }));
}

/**
 * The Lambda functions of the templates whose code is an asset of the assembly: the asset directory
 * named by the code's S3 key (`<hash>.zip` → `asset.<hash>/`) and the handler's module in it.
 */
export function assemblyFunctions(dir: string, templates = assemblyTemplates(dir)): AssemblyFunction[] {
  return templates.flatMap((template) =>
    Object.entries(template.resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([logicalId, r]) => {
        const key = String(r.Properties.Code?.S3Key ?? '');
        const assetDir = join(dir, `asset.${key.replace(/\.zip$/, '')}`);
        const [file, exportName] = String(r.Properties.Handler).split('.') as [string, string];
        const module = ['.mjs', '.js', '.cjs'].map((ext) => join(assetDir, `${file}${ext}`)).find(existsSync);
        if (!module) throw new Error(`${template.file} ${logicalId}: no ${file}.* in ${assetDir}`);
        return {
          template,
          logicalId,
          name: String(r.Properties.FunctionName ?? logicalId),
          module,
          exportName,
          environment: (r.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
          roleId: r.Properties.Role['Fn::GetAtt'][0] as string,
        };
      }),
  );
}
