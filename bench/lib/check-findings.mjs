// check-findings.mjs — compares kube-netlint's JSON findings on a gen-corpus workspace with the problems
// gen-corpus planted (corpus-manifest.json): every planted nodePort, healthCheckNodePort and hostPort
// collision must be reported at its file:line, and no other collision finding may appear.

/** Rules that report port collisions (each reports both sides). */
export const COLLISION_RULES = new Set([
  'nodeport-duplicate', 'healthcheck-nodeport-duplicate', 'host-port-conflicts-nodeport',
  'host-port-conflicts-healthcheck-nodeport', 'hostport-conflict',
]);

/**
 * @param manifest gen-corpus's corpus-manifest.json
 * @param output kube-netlint `--format json` output ({findings: [{ruleId, file, line, ...}]}), files relative to the corpus
 * @returns {{ok: boolean, expected: number, missing: string[], unexpected: string[], byRule: Record<string, number>}}
 */
export function checkFindings(manifest, output) {
  const expected = new Map(); // "file:line" -> rules accepted there
  const want = (loc, rules) => expected.set(`${loc.file}:${loc.line}`, rules);
  for (const d of manifest.planted.duplicateNodePorts) for (const l of d.locations) want(l, ['nodeport-duplicate']);
  for (const c of manifest.planted.healthCheckNodePortCollisions) {
    want(c.healthCheckNodePort, ['healthcheck-nodeport-duplicate']);
    want(c.nodePort, ['healthcheck-nodeport-duplicate', 'nodeport-duplicate']);
  }
  for (const h of manifest.planted.hostPortCollisions) for (const l of h.locations) want(l, ['hostport-conflict']);
  const got = new Map(); // "file:line" -> rule ids reported there
  const byRule = {};
  for (const f of output.findings) {
    byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
    if (!COLLISION_RULES.has(f.ruleId)) continue;
    const key = `${f.file.split('\\').join('/')}:${f.line}`;
    got.set(key, [...(got.get(key) ?? []), f.ruleId]);
  }
  const missing = [...expected].filter(([k, rules]) => !(got.get(k) ?? []).some((r) => rules.includes(r))).map(([k, rules]) => `${k} (${rules.join('|')})`);
  const unexpected = [...got].filter(([k]) => !expected.has(k)).map(([k, rules]) => `${k} (${rules.join(', ')})`);
  return { ok: missing.length === 0 && unexpected.length === 0, expected: expected.size, missing, unexpected, byRule };
}
