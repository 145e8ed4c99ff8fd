import { renderNoteFindings } from './report/render-notes';
import type { Rule } from './rule';

const id = 'render-incomplete';

/** A render ran without some of its inputs (remote bases, cluster-side values): what was left out. */
export const renderIncomplete: Rule = {
  id,
  title: 'Part of a render was left out',
  severity: 'info',
  explanation: [
    'kube-netlint never touches the network, and some inputs of a render only exist elsewhere. They are left out,',
    'the rest is rendered and linted, and this finding names what is missing, so its objects are known to be',
    'unchecked:',
    '',
    '- a kustomize `resources`/`components` entry that names a remote base (a URL, `github.com/…`, `git::…`,',
    '  `ssh://…`): kustomize would fetch it with HTTP or `git`; a strategic-merge patch whose only target came from',
    '  that base is left out too;',
    '- a `helmCharts` entry whose chart is not vendored in the chart home (kustomize would pull it);',
    "- a chart dependency missing from `charts/` (`helm dependency build` was not run): the chart is rendered without",
    "  it (from a copy whose Chart.yaml leaves it out); when its `condition` is false for the release's values, the",
    '  render is complete anyway and the finding says so;',
    '- for Argo CD and Flux releases: values from Secrets or ConfigMaps (`valuesFrom`), cluster-side post-renderers,',
    '  `${var}` substitution (`postBuild`), and charts or sources outside this repository.',
    '',
    'Vendor the remote pieces into the repository (or lint a rendered copy) to lint them too.',
  ].join('\n'),
  sources: [
    'https://github.com/kubernetes-sigs/kustomize/blob/kustomize/v5.4.2/api/internal/target/kusttarget.go (accumulateResources: remote loading)',
    'https://fluxcd.io/flux/components/helm/helmreleases/ (valuesFrom, postRenderers)',
    'https://fluxcd.io/flux/components/kustomize/kustomizations/ (postBuild substitution)',
  ],
  check: ({ layout }) => renderNoteFindings(layout, id),
};
