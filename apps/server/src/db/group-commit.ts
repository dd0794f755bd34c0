/** How a GroupCommit groups items and writes a group. */
export interface GroupCommitOptions<Item, Result> {
  /** Statements out at once; an item that finds them all out waits for one to come back, with the items that came meanwhile. */
  maxInFlight: number;
  /** Items written together in one statement at most. */
  maxPerGroup: number;
  /** Items of the same key never share a statement (it writes each row once); null puts no such limit. */
  keyOf: (item: Item) => string | null;
  /** Writes a group in one statement, answering each item's result in the group's order. */
  writeGroup: (items: Item[]) => Promise<Result[]>;
}

interface Queued<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: while `maxInFlight` statements are out, the items that arrive go together in the next
 * one, up to `maxPerGroup`, at most one per key. What a statement costs (a commit, a round trip, waking a
 * backend, reading the answer) is then shared by as many items as came meanwhile: the busier the server,
 * the bigger the groups. When a group's statement fails, each of its items is written alone, so one
 * item's failure is its own.
 */
export class GroupCommit<Item, Result> {
  private queue: Queued<Item, Result>[] = [];
  private inFlight = 0;

  constructor(private readonly options: GroupCommitOptions<Item, Result>) {}

  write(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    const { maxInFlight, maxPerGroup, keyOf } = this.options;
    while (this.inFlight < maxInFlight && this.queue.length) {
      const group: Queued<Item, Result>[] = [];
      const later: Queued<Item, Result>[] = [];
      const keys = new Set<string>();
      for (const queued of this.queue) {
        const key = keyOf(queued.item);
        if (group.length < maxPerGroup && (key === null || !keys.has(key))) {
          if (key !== null) keys.add(key);
          group.push(queued);
        } else later.push(queued);
      }
      this.queue = later;
      this.inFlight += 1;
      void this.writeGroup(group).finally(() => {
        this.inFlight -= 1;
        this.send();
      });
    }
  }

  private async writeGroup(group: Queued<Item, Result>[]): Promise<void> {
    try {
      const results = await this.options.writeGroup(group.map((queued) => queued.item));
      group.forEach((queued, i) => queued.resolve(results[i]!));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(group.map((queued) => this.writeGroup([queued])));
    }
  }
}
