/**
 * Save a file through the browser's download (an object URL on a temporary link), the one way a
 * page can hand a file to the student without a server. Run files, CSVs, PNGs and the TRL zip all
 * leave through here.
 */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference once started; free ours after it had time to begin.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function downloadText(fileName: string, text: string, type: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}
