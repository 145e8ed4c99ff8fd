import { describe } from '../model/objects';
import { handlerPorts, hookPath, isUnrunHookAction } from '../model/views/container-handlers';
import { isRecord, keySpanAt, rawAt } from '../model/views/raw-fields';
import type { Finding, Rule } from './rule';
import { refOf } from './rule';

const id = 'lifecycle-hook-tcpsocket';

/** The handlers the kubelet runs (kubernetes pkg/kubelet/lifecycle/handlers.go, handlerRunner.Run, v1.33). */
const RUN_HANDLERS = ['exec', 'httpGet', 'sleep'] as const;

/**
 * A postStart or preStop hook whose handler is `tcpSocket`: the API server stores it (validateHandler counts it as
 * the hook's one handler and checks only its port), but the kubelet's handler runner runs `exec`, `httpGet` and
 * `sleep` only and fails anything else with "invalid handler". A failed postStart kills the container
 * (FailedPostStartHook), so it never stays up; a failed preStop is logged (FailedPreStopHook) and the container is
 * stopped at once, without the delay or drain the hook was meant to give.
 * Sources: kubernetes staging/src/k8s.io/api/core/v1/types.go (LifecycleHandler.TCPSocket: "Deprecated. TCPSocket is
 * NOT supported as a LifecycleHandler"), pkg/apis/core/validation/validation.go (validateLifecycle, validateHandler,
 * handlerFromLifecycle), pkg/kubelet/lifecycle/handlers.go (handlerRunner.Run), pkg/kubelet/kuberuntime/
 * kuberuntime_container.go (startContainer, executePreStopHook), pkg/features/kube_features.go
 * (PodLifecycleSleepAction: beta and on by default in 1.30, GA in 1.34), v1.33.
 */
export const lifecycleHookTcpsocket: Rule = {
  id,
  title: 'Lifecycle hook uses tcpSocket, which the kubelet never runs',
  severity: 'error',
  explanation: [
    'A container\'s `lifecycle.postStart` and `lifecycle.preStop` hooks take one handler: `exec`, `httpGet` or `sleep`.',
    'The API also has a `tcpSocket` field there, "Deprecated. TCPSocket is NOT supported as a LifecycleHandler and kept',
    'for backward compatibility". The API server accepts it (it counts as the hook\'s handler and only its port is',
    'checked), but the kubelet runs `exec`, `httpGet` and `sleep` only, and fails any other hook with `invalid handler`:',
    '',
    '- a **postStart** hook with `tcpSocket` fails every time: the kubelet records `FailedPostStartHook` and kills the',
    '  container, which is restarted by its restart policy and fails again (`CrashLoopBackOff`): it is an **error**;',
    '- a **preStop** hook with `tcpSocket` fails at once: the kubelet records `FailedPreStopHook` and stops the container',
    '  right away, so the delay or connection drain the hook was meant to give never happens (the endpoint may still get',
    '  traffic while the process exits): a **warning**.',
    '',
    'Use `exec` with a command (`["sh", "-c", "sleep 5"]`, or a drain command of the program), `httpGet` against an',
    'endpoint of the container, or, from Kubernetes 1.30 (where the `PodLifecycleSleepAction` gate is on by default),',
    '`sleep: {seconds: N}`. Probes are not concerned: a probe\'s `tcpSocket` is supported.',
    '',
    'The finding is on the `tcpSocket` key. A hook that also has another handler, or a `tcpSocket.port` that is not a',
    'valid port, is rejected by the API server (`pod-spec-invalid` reports both; the object then takes part in no',
    'other check), and a plain init container may have no lifecycle at all; those are not reported here. Restartable',
    'init containers (sidecars, `restartPolicy: Always`) run their hooks like regular containers and are checked.',
  ].join('\n'),
  sources: [
    'kubernetes staging/src/k8s.io/api/core/v1/types.go (LifecycleHandler.TCPSocket: "Deprecated. TCPSocket is NOT supported as a LifecycleHandler", v1.33)',
    'kubernetes pkg/apis/core/validation/validation.go (validateLifecycle, validateHandler, handlerFromLifecycle: tcpSocket counts as the one handler, only its port is validated; validateInitContainers, v1.33)',
    'kubernetes pkg/kubelet/lifecycle/handlers.go (handlerRunner.Run: exec, httpGet, sleep; otherwise `invalid handler`, v1.33)',
    'kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: FailedPostStartHook and the container is killed; executePreStopHook: FailedPreStopHook, v1.33)',
    'kubernetes pkg/features/kube_features.go (PodLifecycleSleepAction: alpha 1.29, beta and on by default 1.30, GA 1.34)',
    'https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/ (v1.33)',
  ],
  check({ model }) {
    const findings: Finding[] = [];
    for (const w of model.workloads) {
      for (const h of handlerPorts(w)) {
        if (!isUnrunHookAction(h) || h.container.role === 'init') continue; // a plain init container's lifecycle is rejected
        const hook = h.handler as 'postStart' | 'preStop';
        const path = hookPath(w.pod.path, h.container, hook);
        // Read only for the (rare) hooks with tcpSocket: another handler beside it is rejected ("may not specify
        // more than 1 handler type"), so such an object is never created.
        const handler = rawAt(w.raw, path);
        if (!isRecord(handler) || RUN_HANDLERS.some((k) => handler[k] !== undefined && handler[k] !== null)) continue;
        const who = `container "${h.container.name}" in ${describe(w)}`;
        findings.push({
          ruleId: id,
          severity: hook === 'postStart' ? 'error' : 'warning',
          message: hook === 'postStart'
            ? `postStart hook of ${who} uses tcpSocket, which the kubelet never runs: the hook fails and the container is killed (FailedPostStartHook), so it restarts forever; use exec with a command, httpGet, or sleep (Kubernetes 1.30+)`
            : `preStop hook of ${who} uses tcpSocket, which the kubelet never runs: the hook fails (FailedPreStopHook) and the container is stopped at once, without the delay or drain; use exec with a command, httpGet, or sleep (Kubernetes 1.30+)`,
          span: keySpanAt(w, `${path}.tcpSocket`),
          object: refOf(w),
          related: [],
          fixes: [],
        });
      }
    }
    return findings;
  },
};
