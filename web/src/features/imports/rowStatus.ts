/** The rows' statuses during an import, kept outside React state: a status change wakes only
 * the cell showing that row (if it is on screen), and the totals are painted at most every
 * `paintMs`, so a 50,000-row sheet does not rebuild or re-render its whole grid per answer. */
import { useSyncExternalStore } from 'react';
import type { RowState } from './importLogic';

export interface StatusTotals {
  /** Rows with a status (0 before an import). */
  rows: number;
  /** Rows answered: complete, complete duplicate or error. */
  finished: number;
  uploaded: number;
  failed: number;
}

const NONE: StatusTotals = { rows: 0, finished: 0, uploaded: 0, failed: 0 };
const isUploaded = (s?: RowState) => s?.status === 'complete' || s?.status === 'complete duplicate';
const isFinished = (s?: RowState) => isUploaded(s) || s?.status === 'error';

export class RowStatuses {
  private states: (RowState | undefined)[] = [];
  private rowListeners = new Map<number, Set<() => void>>();
  private totalsListeners = new Set<() => void>();
  private counts: StatusTotals = NONE;
  private painted: StatusTotals = NONE;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly paintMs = 150) {}

  get(index: number): RowState | undefined {
    return this.states[index];
  }

  totals = (): StatusTotals => this.painted;

  /** Every row waiting (a new import), or none (a new file). */
  reset(rows: number, state?: RowState): void {
    this.states = Array.from({ length: rows }, () => state);
    this.counts = { ...NONE, rows: state ? rows : 0 };
    this.rowListeners.forEach((listeners) => listeners.forEach((l) => l()));
    this.paint();
  }

  set(index: number, state: RowState): void {
    const before = this.states[index];
    this.states[index] = state;
    const c = { ...this.counts };
    c.finished += Number(isFinished(state)) - Number(isFinished(before));
    c.uploaded += Number(isUploaded(state)) - Number(isUploaded(before));
    c.failed += Number(state.status === 'error') - Number(before?.status === 'error');
    this.counts = c;
    this.rowListeners.get(index)?.forEach((l) => l());
    this.timer ??= setTimeout(() => this.paint(), this.paintMs);
  }

  /** The totals as they are now, to the listeners (at the end of an import). */
  paint(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.painted === this.counts) return;
    this.painted = this.counts;
    this.totalsListeners.forEach((l) => l());
  }

  subscribeRow(index: number, listener: () => void): () => void {
    const listeners = this.rowListeners.get(index) ?? new Set();
    listeners.add(listener);
    this.rowListeners.set(index, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.rowListeners.delete(index);
    };
  }

  subscribeTotals = (listener: () => void): (() => void) => {
    this.totalsListeners.add(listener);
    return () => this.totalsListeners.delete(listener);
  };
}

/** One row's status, re-rendering only when it changes. */
export function useRowStatus(store: RowStatuses, index: number): RowState | undefined {
  return useSyncExternalStore(
    (listener) => store.subscribeRow(index, listener),
    () => store.get(index),
  );
}

/** The import's totals, at most once per paint. */
export function useStatusTotals(store: RowStatuses): StatusTotals {
  return useSyncExternalStore(store.subscribeTotals, store.totals);
}
