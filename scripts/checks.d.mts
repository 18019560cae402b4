export interface CheckResult {
  passed: number;
  failed: number;
  seconds: string;
}
export const CHECKS: { label: string; args: string[] }[];
export function runCheck(root: string, label: string, args: string[], log?: (line: string) => void): Promise<CheckResult>;
