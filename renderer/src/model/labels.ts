// Label sets as the service keeps them (trimmed, unique, sorted), and label changes (what to add
// and what to remove) as the agent makes them on a conversation or a contact.

/** Normalises a label set the way the service stores it: trimmed, unique, sorted. */
export const normalizeLabels = (labels: readonly string[]) => [...new Set(labels.map((l) => l.trim()).filter(Boolean))].sort();

export interface LabelChange {
  add: string[];
  remove: string[];
}

/** `labels` with `change` applied. */
export const withLabelChange = (labels: readonly string[], change: LabelChange) => {
  const drop = new Set(change.remove);
  return normalizeLabels([...labels.filter((l) => !drop.has(l)), ...change.add]);
};

/** Two relative changes in a row as one: the later wins where they disagree. */
export const combineLabelChanges = (first: LabelChange, then: LabelChange): LabelChange => ({
  add: normalizeLabels([...first.add.filter((l) => !then.remove.includes(l)), ...then.add]),
  remove: normalizeLabels([...first.remove.filter((l) => !then.add.includes(l)), ...then.remove]),
});

