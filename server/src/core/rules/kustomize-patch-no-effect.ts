import { renderNoteFindings } from './report/render-notes';
import type { Rule } from './rule';

const id = 'kustomize-patch-no-effect';

/** A kustomize patch that changes nothing in the rendered output: users believe it applied. */
export const kustomizePatchNoEffect: Rule = {
  id,
  title: 'kustomize patch changes nothing',
  severity: 'warning',
  explanation: [
    'kube-netlint compares each patch of an overlay with what `kustomize build` produced: a patch whose values are',
    'not in the rendered object (or are all already in the base), or whose `target` matches no object, has no',
    'effect, while its author believes it applied — a nodePort "moved" per environment that still has the base',
    'value, a hostPort that was never removed.',
    '',
    'One known cause (kustomize v5.4, issues #3620 and #4752): when exactly one of the base Service port and the',
    'strategic-merge patch port spells out `protocol`, the two items are not merged and the patch\'s `nodePort` is',
    'dropped silently. Write `protocol` in both or in neither. Other causes: a later patch sets the same field again,',
    'a `target` with the wrong kind, name or namespace, a patch of a field the base does not have under that path.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes-sigs/kustomize/issues/3620',
    'https://github.com/kubernetes-sigs/kustomize/issues/4752',
    'https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patches/ (kustomize v5)',
  ],
  check: ({ layout }) => renderNoteFindings(layout, id),
};
