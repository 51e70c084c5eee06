import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Operation } from '../../shared/contracts/types';
import { CalEventsStack } from '../../infra/stack';

/** One template of the app: the service's stack or one of its nested stacks. */
export interface SynthTemplate {
  name: string;
  stack: Stack;
  template: Template;
}

/**
 * Synthesizes the real stack. CDK's own `aws:cdk:bundling-stacks` key (what `cdk deploy StackA` uses
 * for the stacks it skips) leaves esbuild out, so only the code asset differs from a deployment; the
 * entries must still exist, so a missing handler file fails here.
 */
export function synth(context: Record<string, unknown> = {}, operations?: readonly Operation[]) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new CalEventsStack(app, 'Test', operations ? { operations } : {});
  const stacks = [
    stack,
    ...stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c)),
  ];
  // One synthesis for all the templates (Template.fromStack would synthesize the app once for each).
  const { directory } = app.synth();
  const templates: SynthTemplate[] = stacks.map((s) => ({
    name: s.node.path,
    stack: s,
    template: Template.fromJSON(JSON.parse(readFileSync(join(directory, s.templateFile), 'utf8'))),
  }));
  const byStack = new Map(templates.map((t) => [t.stack, t.template]));
  const functions = new Map<string, LambdaFunction>();
  const api = stack.node.findChild('Api') as unknown as { functions: Map<string, LambdaFunction> };
  for (const [name, fn] of api.functions) functions.set(name, fn);
  for (const family of stack.families.values())
    for (const [name, fn] of family.functions) functions.set(name, fn);
  // The public pages' function, in the site's stack (issue 29).
  if (stack.site?.renderPage) functions.set('renderPage', stack.site.renderPage);
  // The tickets' pages' function, beside it (issue 42).
  if (stack.site?.ticketPages) functions.set('ticketPages', stack.site.ticketPages);
  // The scheduled jobs' functions (issue 27: extendSeries).
  for (const [name, fn] of stack.jobs.functions) functions.set(name, fn);
  // The webhook engine's dispatcher and deliverer (issue 28).
  for (const [name, fn] of stack.webhooks.functions) functions.set(name, fn);

  /** A function's template, logical ID and resource, by operationId (`noRoute` for the fallback). */
  const fn = (name: string) => {
    const f = functions.get(name);
    if (!f) throw new Error(`no function ${name}`);
    const owner = Stack.of(f);
    const template = byStack.get(owner)!;
    const logicalId = owner.getLogicalId(f.node.defaultChild as CfnResource);
    return { template, logicalId, resource: template.findResources('AWS::Lambda::Function')[logicalId]! };
  };
  /** Every resource of a type in every template, keyed `<template>/<logical ID>`. */
  const resources = (type: string) =>
    Object.fromEntries(
      templates.flatMap((t) =>
        Object.entries(t.template.findResources(type)).map(([id, r]) => [`${t.name}/${id}`, r]),
      ),
    );
  return { app, stack, parent: byStack.get(stack)!, templates, fn, functions, resources };
}

export type Synth = ReturnType<typeof synth>;
