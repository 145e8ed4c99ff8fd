import type { LoadedFile } from '../load/load-file';
import type { K8sObject, ServiceObject, ServicePort, WorkloadObject } from '../model/objects';
import { describe } from '../model/objects';
import { declaredNames, declaredNumbers, declaredPorts, findNamedPort, findNumberedPort, servingContainers } from '../kubernetes/controller-manager/find-port';
import { rawAt } from '../model/views/raw-fields';
import type { Finding, Fix, Rule, TextEdit } from './rule';
import { refOf } from './rule';
import { firstFitting } from '../output/fit-message';
import { fitNames, joinNames } from './report/collisions';
import { insertKeysBefore, verifiedEdit } from './fixes/yaml-insert';
import { replaceScalarEdit } from './fixes/replace-scalar';
import { PatchLookup, patchLookup } from './report/kustomize-patches';
import { isHelmHook } from './report/helm-hooks';

const id = 'service-targetport-unresolved';

/**
 * A Service port whose targetPort the selected pod templates do not declare. Named: error when none of the
 * selected workloads declares the name (with the protocol), warning naming those that lack it otherwise.
 * Numeric (or absent, defaulting to `port`): warning when none of the selected workloads whose every container
 * declares ports declares that number, with a quick fix to the declared port of the Service port's name, or the
 * only one of a single-container pod template.
 */
export const serviceTargetportUnresolved: Rule = {
  id,
  title: 'targetPort not declared by the selected pods',
  severity: 'error',
  explanation: [
    'A Service port sends its traffic to `targetPort` on every Pod its selector matches (the API server defaults',
    '`targetPort` to `port` when it is not written).',
    '',
    '**Named targetPort** (e.g. `targetPort: https`): it is resolved per Pod. The endpoints controller looks for a',
    'container port with that `name` **and** the same `protocol` in the Pod\'s containers (and restartable init',
    'containers, the sidecars, since Kubernetes v1.32). A Pod without one gets **no endpoint** for that Service port: the',
    'Service exists, DNS resolves, but connections are refused or time out, and nothing in `kubectl apply` complains.',
    'kube-netlint reports an **error** when none of the selected pod templates declares the name, and a **warning**',
    'naming the workloads that lack it when only some do (those Pods silently get no traffic on that port). When the',
    'Pods declare the name under another protocol only (`targetPort: dns` of a TCP Service port, the default, and',
    '`{name: dns, containerPort: 53, protocol: UDP}`), the name is right and the message says to set that protocol on',
    'the Service port; the quick fix does it.',
    '',
    '**Numeric targetPort**: the number is used as it is, whatever the Pods declare — declared container ports are',
    'informational in Kubernetes. But when the selected containers declare ports and none of them is the targetPort',
    '(same protocol), the Service most likely sends its traffic to a port nothing listens on (a `port: 80` Service',
    'without `targetPort` in front of an app on 8080 is the classic case): a **warning**. Containers that declare no',
    'ports at all are not judged, and neither is a pod template in which any container (a sidecar too) declares none:',
    'that container may be the one listening on the targetPort. The quick fix sets the targetPort to the declared port',
    'that has the Service port\'s name, or, for a pod template with a single container, to the only port declared —',
    'never to another container\'s port of another name (a sidecar\'s metrics port is not the app).',
    '',
    'Only pod templates in the workspace (or the live cluster) whose labels the Service\'s selector matches (same',
    'namespace) are checked; the rule is silent when the selector matches nothing here (the backends may be deployed',
    'from elsewhere; see `service-selector-unmatched`). Workloads in kustomize patch files (partial on purpose) count',
    'as part of their base, and Helm hooks (`helm.sh/hook`, e.g. chart test Pods) are left out.',
    '',
    'Fix: name the right container port (container port names are IANA_SVC_NAMEs, at most 15 characters), or use the',
    'number the process listens on as `targetPort`.',
  ].join('\n'),
  sources: [
    'kubernetes pkg/api/v1/pod/util.go (FindPort: name and protocol must match; restartable init containers since v1.32, PRs #127976 and #128850 (EndpointSlice); a number is used as is)',
    'kubernetes pkg/controller/endpointslice (no endpoint for a Pod without the named port, v1.33)',
    'kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_Service: targetPort defaults to port, v1.33)',
    'https://kubernetes.io/docs/concepts/services-networking/service/#field-spec-ports (named targetPort, v1.33)',
    'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#ports ("Not specifying a port here DOES NOT prevent that port from being exposed", v1.33)',
  ],
  check({ model, layout, files }) {
    const findings: Finding[] = [];
    const patches = patchLookup(model, layout);
    for (const svc of model.services) {
      // Kustomize patches are partial: a patch Deployment lists only the containers it changes (and is merged into its base).
      // Helm hooks (chart test Pods) carry the app's labels but live only around an install or `helm test`.
      const selected = model.selectedWorkloads(svc).filter((w) => !patches.isPatch(w) && !isHelmHook(w));
      if (selected.length === 0) continue;
      for (const sp of svc.ports) {
        const target = sp.targetPort;
        if (target && typeof target.value === 'string' && target.value !== '') findings.push(...named(svc, sp, target.value, target.span, selected, patches, files));
        else findings.push(...numeric(svc, sp, selected, patches, files));
      }
    }
    return findings;
  },
};

function named(svc: ServiceObject, sp: ServicePort, name: string, span: Finding['span'], selected: readonly WorkloadObject[], patches: PatchLookup, files: ReadonlyMap<string, LoadedFile> | undefined): Finding[] {
  const protocol = sp.protocol.value.toUpperCase();
  const lacking = selected.filter((w) => !patches.withPatches(w).some((v) => findNamedPort(v, name, protocol)));
  if (lacking.length === 0) return [];
  const all = lacking.length === selected.length;
  const portLabel = portText(sp);
  // When every Pod lacking the port declares the name, only under another protocol (one for all), the name is
  // right and the protocol is what to change: FindPort matches both.
  const other = otherProtocol(lacking, name, patches);
  const written = rawAt(svc.raw, `spec.ports.${sp.index}.protocol`) !== undefined;
  const asked = `${protocol}${written ? '' : ', the default'}`;
  // Long names leave no room for what the pod template declares instead (its related location lists it).
  const render = (declares: boolean) => fitNames((max) => (all && other
    ? `targetPort "${name}" (${asked}) of ${portLabel} in ${describe(svc)} matches the name, not the protocol, of port ${name}/${other} in ${joinNames(lacking.map(describe), max)}: endpoints need both, so no Pod gets one and connections fail; set protocol: ${other} on the Service port`
    : all
    ? `targetPort "${name}" (${protocol}) of ${portLabel} in ${describe(svc)} is not declared by any container of ${joinNames(lacking.map(describe), max)}${declares && lacking.length === 1 ? ` (it declares ${declaredNames(lacking[0], 3)})` : ''}: no Pod gets an endpoint for it, so connections fail; rename one of them to match`
    : `targetPort "${name}" (${protocol}) of ${portLabel} in ${describe(svc)} is not declared by ${joinNames(lacking.map(describe), max)}${other ? ` (only as ${name}/${other})` : ''} (the Service also selects ${joinNames([...new Set(selected.filter((w) => !lacking.includes(w)).map(describe))], max)}, which declares it): those Pods get no endpoint for this port; declare it there too${other ? ` with protocol ${protocol}` : ''}`));
  const message = firstFitting(render(true), render(false));
  return [{
    ruleId: id,
    severity: all ? 'error' : 'warning',
    message,
    span,
    object: refOf(svc),
    related: lacking.map((w) => ({ span: w.span, message: `${describe(w)} declares ${declaredNames(w)}` })),
    fixes: all && other ? protocolFix(svc, sp, other, files) : [],
  }];
}

/**
 * The one protocol under which every one of `lacking` declares a port named `name` (in its serving containers, with
 * its kustomize patches), when there is one; undefined when one of them lacks the name or they differ.
 */
function otherProtocol(lacking: readonly WorkloadObject[], name: string, patches: PatchLookup): string | undefined {
  const found = new Set<string>();
  for (const w of lacking) {
    const protocols = patches.withPatches(w).flatMap((v) => servingContainers(v).flatMap((c) => c.ports.filter((p) => p.name?.value === name).map((p) => p.protocol.value.toUpperCase())));
    if (protocols.length === 0) return undefined;
    for (const p of protocols) found.add(p);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** Sets the Service port's protocol: its written value replaced, else a `protocol:` key added before a block-style key. */
function protocolFix(svc: ServiceObject, sp: ServicePort, protocol: string, files: ReadonlyMap<string, LoadedFile> | undefined): Fix[] {
  const title = `Set protocol: ${protocol} on the Service port`;
  const file = files?.get(svc.file);
  const item = rawAt(svc.raw, `spec.ports.${sp.index}`);
  if (!file || typeof item !== 'object' || item === null) return [];
  const accepted = (o: K8sObject): boolean => (o as ServiceObject).ports?.[sp.index]?.protocol.value === protocol;
  let edit: TextEdit | undefined;
  if ('protocol' in item) edit = verifiedEdit(file, svc, replaceScalarEdit(files, sp.protocol.span, sp.protocol.value, protocol), accepted);
  else {
    for (const key of Object.keys(item)) {
      const keySpan = svc.paths?.get(`spec.ports.${sp.index}.${key}#key`);
      if (!keySpan) continue;
      edit = verifiedEdit(file, svc, insertKeysBefore(file, keySpan, [`protocol: ${protocol}`]), accepted);
      if (edit) break;
    }
  }
  return edit ? [{ title, edits: [edit], preferred: true }] : [];
}

function numeric(svc: ServiceObject, sp: ServicePort, selected: readonly WorkloadObject[], patches: PatchLookup, files: ReadonlyMap<string, LoadedFile> | undefined): Finding[] {
  const written = sp.targetPort && typeof sp.targetPort.value === 'number' && sp.targetPort.value !== 0 ? sp.targetPort as { value: number; span: Finding['span'] } : undefined;
  const number = written?.value ?? sp.port?.value;
  const span = written?.span ?? sp.port?.span;
  if (number === undefined || !span) return [];
  const protocol = sp.protocol.value.toUpperCase();
  // A container that declares no ports says nothing about where it listens (declared ports are informational):
  // a pod template with such a container may well serve the number, so only fully declared templates are judged.
  const declaring = selected.filter((w) => everyContainerDeclares(patches.withPatches(w)));
  // Any selected pod template that declares the number (a sidecar too) shows the Service is meant for it.
  if (declaring.length === 0 || selected.some((w) => patches.withPatches(w).some((v) => findNumberedPort(v, number, protocol)))) return [];
  const what = written ? `targetPort ${number}/${protocol} of ${portText(sp)} in ${describe(svc)}` : `${portText(sp)} of ${describe(svc)} has no targetPort, so it sends to Pod port ${number}/${protocol}, which`;
  const declared = declaring.length === 1 ? ` (it declares ${declaredNumbers(declaring[0], 3)})` : '';
  // Long names leave no room for what the pod template declares instead (its related location lists it).
  const render = (declares: string) => fitNames((max) => (written
    ? `${what} is not a containerPort of ${joinNames(declaring.map(describe), max)}${declares}: traffic goes to ${number} on the Pods and is refused unless something listens there; use a declared port`
    : `${what} ${joinNames(declaring.map(describe), max)} does not declare${declares}: traffic is refused unless something listens there; set targetPort`));
  const message = firstFitting(render(declared), render(''));
  return [{
    ruleId: id,
    severity: 'warning',
    message,
    span,
    object: refOf(svc),
    related: declaring.map((w) => ({ span: w.span, message: `${describe(w)} declares ${declaredNumbers(w)}` })),
    fixes: numericFix(svc, sp, declaring, protocol, written !== undefined, files),
  }];
}

/**
 * True when every serving container of the pod template (its kustomize patches merged in by container name)
 * declares at least one containerPort. Init containers never serve; sidecars (restartable init containers) do.
 */
function everyContainerDeclares(variants: readonly WorkloadObject[]): boolean {
  const declares = new Map<string, boolean>();
  for (const v of variants) {
    for (const c of servingContainers(v)) declares.set(c.name, (declares.get(c.name) ?? false) || c.ports.some((p) => p.containerPort));
  }
  return declares.size > 0 && [...declares.values()].every(Boolean);
}

/**
 * The declared port with the Service port's name, else the only declared port (same protocol) of a pod template
 * with a single serving container, as a targetPort edit. Another container's port with another name (a sidecar's
 * metrics or admin port) is never offered: traffic meant for the app would go to the sidecar.
 */
function numericFix(svc: ServiceObject, sp: ServicePort, declaring: readonly WorkloadObject[], protocol: string, written: boolean, files: ReadonlyMap<string, LoadedFile> | undefined): Fix[] {
  const ports = declaring.flatMap((w) => declaredPorts(w).map((d) => ({ w, ...d }))).filter((d) => d.port.protocol.value.toUpperCase() === protocol);
  const byName = sp.name ? ports.filter((d) => d.port.name?.value === sp.name!.value) : [];
  const single = declaring.every((w) => servingContainers(w).length === 1);
  if (byName.length === 0 && !single) return [];
  const numbers = new Set((byName.length ? byName : ports).map((d) => d.port.containerPort!.value));
  if (numbers.size !== 1) return [];
  const [number] = numbers;
  const chosen = (byName.length ? byName : ports)[0];
  const title = `Set targetPort to ${number} (${chosen.port.name ? `containerPort "${chosen.port.name.value}"` : 'containerPort'} of ${describe(chosen.w)}, container ${chosen.container.name})`;
  let edit: TextEdit | undefined;
  if (written) edit = { span: sp.targetPort!.span, newText: String(number) };
  else {
    const file = files?.get(svc.file);
    const item = rawAt(svc.raw, `spec.ports.${sp.index}`);
    if (!file || typeof item !== 'object' || item === null) return [];
    // A block-style key of the port entry on its own line: the new key goes right before it, same indentation.
    for (const key of Object.keys(item)) {
      const keySpan = svc.paths?.get(`spec.ports.${sp.index}.${key}#key`);
      if (!keySpan) continue;
      edit = verifiedEdit(file, svc, insertKeysBefore(file, keySpan, [`targetPort: ${number}`]), (o) => (o as ServiceObject).ports?.[sp.index]?.targetPort?.value === number);
      if (edit) break;
    }
  }
  return edit ? [{ title, edits: [edit], preferred: byName.length > 0 }] : [];
}

function portText(sp: ServicePort): string {
  return sp.name ? `port "${sp.name.value}"` : `port ${sp.port?.value ?? `#${sp.index}`}`;
}
