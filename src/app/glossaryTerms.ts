/** The id of a glossary entry: "Cohen's kappa (κ)" -> "term-cohen-s-kappa". */
export function termId(term: string): string {
  const words = term.toLowerCase().replace(/\(.*?\)/g, '').replace(/@/g, ' at ').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `term-${words}`;
}
