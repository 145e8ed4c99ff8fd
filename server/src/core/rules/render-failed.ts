import { renderNoteFindings } from './report/render-notes';
import type { Rule } from './rule';

const id = 'render-failed';

/** kustomize or helm could not render an overlay or release: their own message, on the line they name. */
export const renderFailed: Rule = {
  id,
  title: 'kustomize or helm cannot render this',
  severity: 'error',
  explanation: [
    'kube-netlint renders every kustomize entry point (`kustomize build`, or `kubectl kustomize`) and every Helm',
    'release (`helm template`) it finds, and lints what they produce. When the tool fails, the overlay or release',
    'would fail the same way in `kubectl apply -k`, `helm install`, Argo CD or Flux. The finding carries the',
    "tool's own message, on the line it names: the kustomization entry of a missing file or base, the entry that",
    'closes a cycle, the patch whose target does not exist, the template line of a template error or of a',
    '`required`/`fail` call, the `dependencies` entry of a chart that cannot render without a dependency missing',
    'from `charts/` (run `helm dependency build`: kube-netlint never downloads), or the values file line that does',
    'not parse.',
    '',
    'It is also reported when kube-netlint refuses to run the tool: a chart or kustomization with a symbolic link',
    "that leaves the repository (helm's `.Files.Get` follows it), or a render that runs out of time (20 s) or",
    'output. The rest of the workspace is still linted; the sources of a failed render are linted as written.',
  ].join('\n'),
  sources: [
    'https://helm.sh/docs/helm/helm_template/ (Helm v3)',
    'https://kubectl.docs.kubernetes.io/references/kustomize/cmd/build/ (kustomize v5)',
    'https://github.com/argoproj/argo-cd/blob/master/util/app/path/path.go (CheckOutOfBoundsSymlinks)',
  ],
  check: ({ layout }) => renderNoteFindings(layout, id),
};
