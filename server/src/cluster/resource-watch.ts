import type { KubernetesObject, ListWatch } from '@kubernetes/client-node';
import type { LoadedFile } from '../core/load/load-file';
import type { K8sObject } from '../core/model/objects';
import { clientNode } from './client-node';
import type { LoadedKubeconfig } from './kubeconfig';
import { convertItems } from './read-cluster';
import { Apis, listAllPages, ResourceSpec } from './resources';
import { classifyError, ResourceStatus } from './status';

/** Backoff between attempts after a failure: doubles from `initialMs` up to `maxMs`. */
export interface Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1000, maxMs: 60_000 };

/**
 * One resource kept current by client-node's `ListWatch` informer (list, then a watch from the list's
 * resourceVersion; a 410 Gone re-lists). A failed list or a broken watch is retried with exponential
 * backoff. Objects are converted lazily, once per change.
 */
export class ResourceWatch {
  private readonly informer: ListWatch<KubernetesObject>;
  private state: ResourceStatus;
  /** The last finished conversion of the informer's items. */
  private converted: { views: LoadedFile[]; objects: K8sObject[] } = { views: [], objects: [] };
  /** The views of the last conversion by uid@resourceVersion: unchanged items are not converted again. */
  private readonly byVersion = new Map<string, LoadedFile>();
  /** The conversion running now (undefined when idle), and whether items changed since it started. */
  private converting: Promise<void> | undefined;
  private stale = false;
  private attempt = 0;
  private errors = 0;
  /** True while the list runs: an error then is the list's, otherwise the watch's. */
  private listing = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    readonly spec: ResourceSpec,
    private readonly loaded: LoadedKubeconfig,
    apis: Apis,
    private readonly timeoutMs: number,
    private readonly backoff: Backoff,
    private readonly changed: () => void,
  ) {
    const k8s = clientNode();
    this.state = { id: spec.id, label: spec.label, state: 'pending', count: 0 };
    const list = async () => {
      this.listing = true;
      const result = await listAllPages(spec, apis, timeoutMs);
      this.listing = false;
      return result as never;
    };
    this.informer = new k8s.ListWatch(spec.path, new k8s.Watch(loaded.kc), list, false, undefined, spec.fieldSelector);
    const dirty = (): void => void this.convert();
    this.informer.on('add', dirty);
    this.informer.on('update', dirty);
    this.informer.on('delete', dirty);
    this.informer.on('error', (err: unknown) => this.failed(err));
  }

  get status(): ResourceStatus {
    return this.state.state === 'ok' ? { ...this.state, count: this.informer.list().length } : this.state;
  }

  /** The resource's objects as model objects (as of the last finished conversion; see {@link convert}). */
  objects(): K8sObject[] {
    return this.converted.objects;
  }

  /** The read-only views of {@link objects} (same order). */
  views(): LoadedFile[] {
    return this.converted.views;
  }

  /**
   * Converts the informer's items again (after an add, update or delete), in slices that let the event loop run
   * (see convertItems); events during a conversion start one more when it ends. Reports the change when done.
   */
  private convert(): Promise<void> {
    this.stale = true;
    this.converting ??= (async () => {
      while (this.stale && !this.stopped) {
        this.stale = false;
        const views = await convertItems(this.informer.list(), this.spec, this.loaded.context, this.byVersion);
        this.converted = { views, objects: views.map((v) => v.objects[0]) };
      }
      this.converting = undefined;
      if (!this.stopped) this.changed();
    })();
    return this.converting;
  }

  /** Lists and starts watching; resolves once the first list has succeeded or failed. */
  async start(): Promise<void> {
    this.stopped = false;
    const before = this.errors;
    await this.informer.start();
    await this.converting; // the listed objects are converted when start() resolves
    // No error while listing and opening the watch: the resource is current.
    if (this.errors === before && !this.stopped) {
      this.attempt = 0;
      this.setState({ id: this.spec.id, label: this.spec.label, state: 'ok', count: 0 });
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    void this.informer.stop();
  }

  private setState(next: ResourceStatus): void {
    const before = this.state;
    this.state = next;
    if (before.state !== next.state || before.detail !== next.detail) this.changed();
  }

  private failed(err: unknown): void {
    this.errors++;
    if (this.stopped) return;
    // RBAC may allow list but not watch: say which verb, and how to do without watch.
    const spec = this.listing ? this.spec : { ...this.spec, permission: `${this.spec.permission.replace(/^list/, 'watch')}; set kubeNetlint.cluster.refreshSeconds to re-list instead` };
    this.listing = false;
    this.setState(classifyError(err, spec, this.timeoutMs, this.loaded.redactor));
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.attempt++);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.start().catch((e) => this.failed(e)), delay);
    this.retryTimer.unref?.();
  }
}
