import type { Rule } from './rule';

const id = 'helm-chart-not-rendered';

/** One info finding per Helm chart that no release rendered (helm missing, an untrusted workspace): its templates are not linted. */
export const helmChartNotRendered: Rule = {
  id,
  title: 'Helm chart not rendered',
  severity: 'info',
  explanation: [
    "Files under a Helm chart's `templates/` folder are Go templates: `nodePort: {{ .Values.service.nodePort }}` is",
    'not YAML data until Helm renders it, so kube-netlint does not parse them (and reports no YAML errors for them).',
    'The ports they will claim depend on the values file of each release.',
    '',
    'With `helm` on PATH (or named by `--helm`, `KUBE_NETLINT_HELM`, or the user setting `kubeNetlint.render.helmPath`),',
    'kube-netlint renders every application chart itself (`helm template`, one release per chart with its own',
    '`values.yaml`, or the releases listed under `render.helm` in `.kube-netlint.yaml`, Argo CD Applications and Flux',
    'HelmReleases) and reports findings on the values-file or template lines; this finding then does not appear. It',
    'says why a chart was not rendered — helm was not found, the VS Code workspace is not trusted (nothing is run',
    'in Restricted Mode), or the CLI ran with `--no-render` — and how to turn rendering on. Charts without templates',
    'render nothing and get no finding.',
    '',
    'Without helm, lint what Helm renders yourself, once per values file you deploy:',
    '',
    '```sh',
    'helm template my-release ./chart -f values-prod.yaml | npx kube-netlint -',
    '```',
    '',
    'Files elsewhere that contain Go template actions (`{{ ... }}` where YAML expects a value) are skipped the same way;',
    "`{{ ... }}` inside quoted or block strings (e.g. Prometheus alert annotations) is ordinary text and does not skip a file.",
  ].join('\n'),
  sources: ['https://helm.sh/docs/helm/helm_template/ (Helm v3)', 'https://helm.sh/docs/chart_template_guide/getting_started/ (Helm v3)'],
  check({ layout }) {
    const rendered = layout?.render?.renderedCharts;
    const reason = layout?.render?.helmUnavailable;
    // A chart without templates or a library chart renders nothing to lint; a vendored subchart renders with its parent.
    return (layout?.charts ?? [])
      .filter((chart) => chart.templates.length > 0 && !chart.library && !chart.parent && !rendered?.has(chart.file))
      .map((chart) => {
        const dir = chart.file.replace(/[/\\]?Chart\.yaml$/, '') || '.';
        const files = chart.templates.length === 1 ? 'its template file is a Go template' : `its ${chart.templates.length} template files are Go templates`;
        const why = reason ? ` (not rendered: ${reason})` : '';
        // The way to turn rendering on depends on why it is off: the flag, the workspace trust, or a missing helm.
        const fix = reason?.includes('--no-render') ? 'run without --no-render' : reason?.includes('not trusted') ? 'trust the workspace' : 'put helm on PATH (or pass --helm)';
        return {
          ruleId: id,
          severity: 'info' as const,
          message: `Helm chart${chart.name ? ` "${chart.name}"` : ''}: ${files} and not linted${why}; ${fix} to lint what it renders, or lint the output: helm template RELEASE ${dir} | npx kube-netlint -`,
          span: { file: chart.file, start: 0, end: 0 },
          related: [],
          fixes: [],
        };
      });
  },
};
