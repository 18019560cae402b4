export interface TreeState {
  status: string;
  diffHash: string;
}
export function treeState(root: string): TreeState | null;
export function treeChanges(before: TreeState | null, after: TreeState | null): string[];
