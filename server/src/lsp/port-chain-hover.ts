import { Analysis, modelsForFile } from '../core/analyze';
import type { K8sObject } from '../core/model/objects';
import { ChainStep, portChainAt } from '../core/references/port-chain';
import type { Span } from '../core/source/span';

/** Steps shown before "… and N more" (a Service port selected by many replicas' templates, many policies). */
export const MAX_CHAIN_STEPS = 20;

/**
 * The "Port chain" section of a hover: for the port field at `offset` of `obj`, every link of the chain it
 * belongs to (Ingress / route / monitor → Service port → targetPort → containerPort → probes, policies), each
 * with a file:line link, nested by level, the field under the cursor in bold. Computed in every cluster model
 * that holds the file; steps found in several are shown once. Undefined when the cursor is on no port field or
 * the chain does not reach another object.
 */
export function portChainSection(analysis: Analysis, file: string, obj: K8sObject, offset: number, link: (span: Span) => string): { text: string; range: Span } | undefined {
  let anchor: Span | undefined;
  const steps: ChainStep[] = [];
  const seen = new Set<string>();
  for (const model of modelsForFile(analysis, file)) {
    const chain = portChainAt(model, obj, offset);
    if (!chain) continue;
    anchor ??= chain.anchor;
    for (const s of chain.steps) {
      const key = `${s.depth}|${s.text}|${s.span.file}#${s.span.start}`;
      if (!seen.has(key)) {
        seen.add(key);
        steps.push(s);
      }
    }
  }
  // A chain that never leaves the hovered object (a Service without selector and without referrers) says nothing.
  const elsewhere = steps.some((s) => s.span.file !== obj.file || s.span.start < obj.extent.start || s.span.end > obj.extent.end);
  if (!anchor || !elsewhere) return undefined;
  const lines: string[] = [];
  let level = -1;
  const minDepth = steps.reduce((m, s) => Math.min(m, s.depth), Infinity); // a chain may have 100,000s of steps: no spread
  for (const s of steps.slice(0, MAX_CHAIN_STEPS)) {
    // Markdown nests a list item at most one level below the previous one.
    level = Math.min(s.depth - minDepth, level + 1);
    const text = s.here ? `**${s.text}**` : s.text;
    lines.push(`${'  '.repeat(level)}- ${text} — ${link(s.span)}`);
  }
  if (steps.length > MAX_CHAIN_STEPS) lines.push(`- … and ${steps.length - MAX_CHAIN_STEPS} more`);
  return { text: `**Port chain**\n\n${lines.join('\n')}`, range: anchor };
}
