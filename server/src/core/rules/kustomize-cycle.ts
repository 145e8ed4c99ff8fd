import { posix } from 'node:path';
import { readKustomization } from '../render/kustomization';
import type { Finding, Rule } from './rule';

const id = 'kustomize-cycle';

/** Kustomizations that reference each other in a cycle: kustomize refuses to build any of them. */
export const kustomizeCycle: Rule = {
  id,
  title: 'Kustomizations reference each other in a cycle',
  severity: 'error',
  explanation: [
    'A kustomization lists another one in `resources` (or `bases`, `components`) that, directly or through others,',
    'lists the first one again. kustomize refuses to build it (`cycle detected: candidate root ... contains visited',
    'root ...`), so nothing in the cycle can be deployed with `kubectl apply -k` or by Argo CD / Flux.',
    '',
    'kube-netlint reports the cycle on the entry that closes it and keeps the files of the cycle in one cluster of',
    'their own (named after the first folder), so they are not mistaken for objects of every cluster.',
    '',
    'Fix: remove the entry that points back; a shared piece belongs in a base (or a `kind: Component`) that both',
    'include.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes-sigs/kustomize/blob/kustomize/v5.4.2/api/internal/target/kusttarget.go (accumulateDirectory: "cycle detected")',
    'https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/resource/ (kustomize v5)',
  ],
  check({ layout, files }) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const entry of layout?.kustomizeEntries ?? []) {
      const cycle = entry.cycle;
      if (!cycle || cycle.length < 2) continue;
      // The entry of the last kustomization that points back to the first one closes the cycle.
      const from = cycle[cycle.length - 2];
      const to = cycle[cycle.length - 1];
      const key = `${from.file}|${to.dir}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const loaded = files?.get(from.file);
      const back = loaded ? [...readKustomization(from.file, loaded.text).resources, ...readKustomization(from.file, loaded.text).components].find((r) => posix.normalize(posix.join(from.dir, r.value)).replace(/\/$/, '') === to.dir) : undefined;
      const dirs = cycle.map((c) => c.dir);
      out.push({
        ruleId: id,
        severity: 'error',
        message: `kustomization cycle ${dirs.join(' → ')}: kustomize refuses to build it ("cycle detected"), so none of these folders can be applied; remove the reference from ${from.dir} back to ${to.dir}`,
        span: back?.span ?? { file: from.file, start: 0, end: 0 },
        related: [],
        fixes: [],
      });
    }
    return out;
  },
};
