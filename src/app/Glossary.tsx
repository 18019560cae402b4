/**
 * The glossary, folded at the bottom of the page; every term used elsewhere opens its entry
 * (GlossaryTerm.tsx: a button, so keyboard and screen readers reach it too).
 */
import { Panel } from './panels/Panel';
import { termId } from './glossaryTerms';

export const TERMS: [string, string][] = [
  ['pass@1', 'The score: the share of new problems a model gets right in one try. Exactly: the share of held-out problems (no model ever trains on them) that a single answer, drawn at temperature 1, gets right: the accuracy of one sample.'],
  ['Pseudo-label', 'The answer a model is rewarded for when no true label is used: the majority vote of its own samples (self), of a partner (peer), or of the rest of the cohort.'],
  ['Majority vote (maj@G)', 'The answer a model gives most often when it answers the same problem several times. Exactly: sample G answers to one prompt and take the most common one. maj@G is the accuracy of that vote, pass@1 the accuracy of a single sample; maj@G > pass@1 is what makes self-voting work at all.'],
  ['Held-out', 'Problems the models never practise on, kept apart to test them: no model ever trains on them, so a score on them shows what a model learned rather than what it memorised. pass@1 and maj@G are measured on them.'],
  ['Peer', "A partner: another model trained beside this one. Under peer reward (Co-RL) a model is rewarded for agreeing with its peer's majority vote instead of its own; both train at once."],
  ['Own vote', "The majority vote of a model's own G samples on a prompt. Own-vote accuracy is how often it is the right answer; under self-reward it is also the label the model is trained on."],
  ['Rescue rate', "Of the prompts where a model's own vote is wrong, the share where the label it is trained on is right: the partner knows something the model does not. Its opposite, the mislead rate, is the share of prompts where its own vote is right and the label is wrong."],
  ['Shared error', "A label that is wrong and equal to the model's own wrong vote: the model is paid for repeating its own mistake. Under self-reward every wrong label is a shared error, so the shared-error rate is the model's error rate."],
  ['tau (τ)', 'The vote threshold: a prompt whose majority answer has a share of the votes below tau gets no label, and every answer to it a reward of 0. At 0 (the default) every prompt with a parseable vote is labelled.'],
  ['nat', 'The unit of entropy with natural logarithms. A model choosing evenly among 10 digits has ln 10 ≈ 2.3 nats of entropy per token; one that always says the same thing has 0.'],
  ['GRPO', 'The training rule: a model answers each problem several times, and the answers that earned more reward than the others become more likely. In full, Group Relative Policy Optimization: sample a group of G completions per prompt, score each, and push up the ones scoring above the group mean (advantage = reward − mean, divided by the std), with a PPO-style clip.'],
  ['Reward hacking', 'The reward goes up while what we actually want (true accuracy) does not. With self-reward the easy way is to agree with yourself: always say the same answer.'],
  ['Collapse', 'The end of reward hacking: the reward reaches 1, entropy falls to 0, and held-out accuracy drops, because the model has converged on confident answers that are often wrong.'],
  ['Error overlap', 'How much two models fail on the same problems. If they make different mistakes, one can supply the right pseudo-label where the other is wrong.'],
  ["Cohen's kappa (κ)", "Agreement of two models' right/wrong patterns beyond chance: 0 = independent errors, 1 = identical, below 0 = they tend to fail on different problems. Co-RL found 0.31–0.42 for cross-family pairs and ≥ 0.51 for same-family pairs."],
  ['Arm', "One way of rewarding the models, trained side by side with the others from the same starting weights: oracle (paid by the true answers), self (by its own majority vote), peer (by its partner's), and more. Each arm trains its own copies of the models."],
  ['Warm start', 'Practice before the label-free training: each model learns from worked examples with their answers until it gets a set share of them right, so that it starts out right some of the time and a vote can mean something.'],
  ['RL step', 'One round of training: every model answers a batch of problems several times, each answer gets its reward, and GRPO changes the model once.'],
  ['Oracle arm', 'Trained with the true answers. Not label-free: it is the ceiling the label-free arms are measured against.'],
  ['Compute-matched ensemble', 'Two independently trained models pooled by majority vote. It costs as much as a peer pair, so a peer arm must beat it to show that training together helped. The "untrained pair pooled" line is the same two models pooled before any RL: the starting point of every pooled line.'],
];

export function Glossary() {
  return (
    <Panel id="glossary" title="Glossary" wide className="glossary" intro={null}>
      <dl data-testid="glossary">
        {TERMS.map(([term, text]) => (
          <div key={term} className="term" id={termId(term)} tabIndex={-1}>
            <dt>{term}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
