/**
 * The mechanism behind label-free rewards, per step and member (docs/METHOD.md, "The mechanism"):
 * what the label a member is trained on does where its own vote is wrong and where it is right.
 *
 *   own vote accuracy  its own plurality is the truth (over all prompts; no vote counts as wrong);
 *   rescue rate        where its own vote is wrong, the label is right: the partner teaches it
 *                      something it did not know (Co-RL's argument for a peer);
 *   mislead rate       where its own vote is right, the label is wrong: the partner pulls it away;
 *   shared error rate  the label is wrong and equal to its own vote: it is paid for repeating its
 *                      own mistake (always the error rate under self-reward).
 * Rates are over labeled prompts (label not null) of the named kind; NaN over an empty set
 * (labels.ts's convention).
 */
export interface LabelMechanism {
  ownVoteAccuracy: number;
  rescueRate: number;
  misleadRate: number;
  sharedErrorRate: number;
}

const rate = (hits: number, total: number) => (total === 0 ? NaN : hits / total);

/**
 * `own`: the member's plurality per prompt (the plain plurality: an arm's tau must not turn a slim
 * but right own vote into "no vote", which would count it as wrong and its label as a rescue);
 * `labels`: the label it was rewarded against (null = unlabeled).
 */
export function labelMechanism(own: readonly (string | null)[], labels: readonly (string | null)[], truths: readonly string[]): LabelMechanism {
  if (own.length !== truths.length || labels.length !== truths.length) {
    throw new RangeError(`labelMechanism: ${own.length} votes, ${labels.length} labels, ${truths.length} truths`);
  }
  let ownRight = 0;
  let wrongLabeled = 0;
  let rescued = 0;
  let rightLabeled = 0;
  let misled = 0;
  let labeled = 0;
  let shared = 0;
  truths.forEach((truth, b) => {
    const mine = own[b];
    const label = labels[b];
    const right = mine !== null && mine === truth;
    if (right) ownRight++;
    if (label === null) return;
    labeled++;
    if (right) {
      rightLabeled++;
      if (label !== truth) misled++;
    } else {
      wrongLabeled++;
      if (label === truth) rescued++;
    }
    if (label !== truth && label === mine) shared++;
  });
  return {
    ownVoteAccuracy: rate(ownRight, truths.length),
    rescueRate: rate(rescued, wrongLabeled),
    misleadRate: rate(misled, rightLabeled),
    sharedErrorRate: rate(shared, labeled),
  };
}
