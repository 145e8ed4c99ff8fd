import type { LoadedFile } from '../core/load/load-file';
import type { K8sObject } from '../core/model/objects';
import { LoadedKubeconfig, loadKubeconfig } from './kubeconfig';
import { ClusterReadOptions, ClusterSnapshot, DEFAULT_TIMEOUT_MS, kubeconfigStatus, listOnce } from './read-cluster';
import { Backoff, DEFAULT_BACKOFF, ResourceWatch } from './resource-watch';
import { Apis, makeApis, resourceSpecs } from './resources';
import { ClusterStatus, ResourceStatus, summarize } from './status';

export interface ClusterSourceOptions extends ClusterReadOptions {
  /** 0 (default) = list once, then keep current with watch streams; N > 0 = re-list everything every N seconds. */
  readonly refreshSeconds?: number;
  /** Retry delays after failures (default 1 s doubling to 60 s). */
  readonly backoff?: Backoff;
  /** Receives status lines (already redacted: never tokens, keys or kubeconfig contents). */
  readonly log?: (line: string) => void;
}

/**
 * The live cluster as a source of objects for the language server: `start()` reads it, then keeps it
 * current (watch or interval), `snapshot()` returns the objects read so far with a status, and
 * `onChange` fires (debounced) when objects or status change. Read-only: list and watch only.
 * An unusable kubeconfig, an unreachable server or a Forbidden list never throws: it is in `status`.
 */
export class ClusterSource {
  private loaded: LoadedKubeconfig | undefined;
  private apis: Apis | undefined;
  private watches: ResourceWatch[] = [];
  private polled: { objects: K8sObject[]; views: LoadedFile[]; resources: ResourceStatus[] } = { objects: [], views: [], resources: [] };
  private currentStatus: ClusterStatus = { state: 'disabled', context: '', message: 'cluster: not started', resources: [] };
  private lastSync: Date | undefined;
  private readonly listeners = new Set<() => void>();
  private debounce: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private pollFailures = 0;
  /** Views of the last poll by resource and uid@resourceVersion: a re-list converts only what changed. */
  private readonly pollCaches = new Map<string, Map<string, LoadedFile>>();
  private running = false;
  private lastLogged = '';

  constructor(private readonly options: ClusterSourceOptions = {}) {}

  get status(): ClusterStatus {
    return this.currentStatus;
  }

  /** Registers a listener for changes of objects or status; returns a disposer. */
  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The objects read so far (origin cluster, not merged with the workspace) and the status. */
  snapshot(): ClusterSnapshot {
    const objects = this.watches.length ? this.watches.flatMap((w) => w.objects()) : this.polled.objects;
    const views = this.watches.length ? this.watches.flatMap((w) => w.views()) : this.polled.views;
    return { context: this.currentStatus.context, objects, views, status: this.currentStatus };
  }

  /** Loads the kubeconfig and reads the cluster once; then keeps it current until `stop()`. */
  async start(): Promise<void> {
    this.stop();
    this.running = true;
    this.pollCaches.clear(); // views name their context, which a re-read kubeconfig may change
    try {
      this.loaded = loadKubeconfig(this.options);
    } catch (err) {
      this.loaded = undefined;
      this.setStatus(kubeconfigStatus(err, this.options.context));
      return;
    }
    this.apis = makeApis(this.loaded.kc);
    this.setStatus(summarize(this.loaded.context, this.loaded.server, resourceSpecs(this.options.namespaces).map((s) => ({ id: s.id, label: s.label, state: 'pending', count: 0 }))));
    if ((this.options.refreshSeconds ?? 0) > 0) await this.poll();
    else await this.startWatches();
  }

  /** Reads everything again now (the "Refresh Cluster" command); also re-reads the kubeconfig. */
  async refresh(): Promise<void> {
    await this.start();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.debounce);
    this.debounce = undefined;
    for (const w of this.watches) w.stop();
    this.watches = [];
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  private async startWatches(): Promise<void> {
    const { loaded, apis } = this;
    if (!loaded || !apis) return;
    this.watches = resourceSpecs(this.options.namespaces).map((spec) => new ResourceWatch(spec, loaded, apis, this.timeoutMs, this.options.backoff ?? DEFAULT_BACKOFF, () => this.changed()));
    // A watch request that never answers must not hold up the first analysis.
    const guard = new Promise<void>((resolve) => setTimeout(resolve, this.timeoutMs * 2).unref?.());
    await Promise.race([Promise.all(this.watches.map((w) => w.start().catch(() => undefined))), guard]);
    this.updateWatchStatus();
  }

  private updateWatchStatus(): void {
    if (!this.loaded || !this.running) return;
    const resources = this.watches.map((w) => w.status);
    if (resources.some((r) => r.state === 'ok')) this.lastSync = new Date();
    this.setStatus(summarize(this.loaded.context, this.loaded.server, resources, this.lastSync));
  }

  private async poll(): Promise<void> {
    const { loaded, apis } = this;
    if (!loaded || !apis || !this.running) return;
    const result = await listOnce(loaded, apis, resourceSpecs(this.options.namespaces), this.timeoutMs, this.pollCaches);
    if (!this.running || loaded !== this.loaded) return;
    const anyOk = result.resources.some((r) => r.state === 'ok');
    // Keep the objects of a list that failed this time from the previous read.
    const failed = new Set(result.resources.filter((r) => r.state !== 'ok').map((r) => r.id));
    const kept = this.polled.views.filter((v) => failed.size && failedSpecOf(v.objects[0], failed));
    const views = result.views.concat(kept);
    this.polled = { objects: views.map((v) => v.objects[0]), views, resources: result.resources };
    if (anyOk) this.lastSync = new Date();
    this.setStatus(summarize(loaded.context, loaded.server, result.resources, this.lastSync));
    this.pollFailures = anyOk ? 0 : this.pollFailures + 1;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const every = (this.options.refreshSeconds ?? 0) * 1000;
    const delay = this.pollFailures ? Math.max(every, Math.min(backoff.maxMs, backoff.initialMs * 2 ** (this.pollFailures - 1))) : every;
    this.pollTimer = setTimeout(() => void this.poll(), delay);
    this.pollTimer.unref?.();
    this.emit();
  }

  private changed(): void {
    this.updateWatchStatus();
    this.emit();
  }

  private setStatus(status: ClusterStatus): void {
    this.currentStatus = status;
    // Log when what is read or missing changes, not on every count or sync time.
    const key = `${status.state}|${status.context}|${status.resources.map((r) => `${r.id}:${r.state}:${r.detail ?? ''}`).join(',')}|${status.resources.length ? '' : status.message}`;
    if (key !== this.lastLogged && status.state !== 'connecting') {
      this.lastLogged = key;
      this.options.log?.(status.message);
    }
    this.emit();
  }

  /** Notifies listeners at most every 250 ms: a busy cluster (pod churn) must neither flood nor starve the analysis. */
  private emit(): void {
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.listeners.forEach((l) => l());
    }, 250);
    this.debounce.unref?.();
  }
}

/** Whether a polled object belongs to one of the resources whose list failed (by kind). */
function failedSpecOf(o: K8sObject, failed: ReadonlySet<string>): boolean {
  const id = { Service: 'services', Pod: 'pods', Node: 'nodes', ConfigMap: 'kube-proxy-config', DaemonSet: 'kube-system-daemonsets' }[o.kind];
  return id !== undefined && [...failed].some((f) => f === id || f.startsWith(`${id}/`));
}
