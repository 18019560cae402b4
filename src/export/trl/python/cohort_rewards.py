"""Votes, pseudo-labels and rewards of a Cohort Lab experiment, for the exported TRL project.

Standard library only, so it can be tested without torch. It is the same logic as the lab's
src/core/rewards (vote.ts, schemes.ts), its seeded tie-breaking stream (src/core/random.ts) and
its answer-extraction rule (src/core/tasks/extract.ts): the same answers give the same labels and
rewards here as in the lab. The lab checks this on fixtures its TypeScript engine makes
(src/export/trl/parity.test.ts).

Arrays are prompt-major: rollout i = b * G + g is sample g of prompt b. An answer is a string, or
None for a malformed or missing answer, which casts no vote and never earns a reward.

Schemes (docs/METHOD.md in the lab), reward of rollout i of member m:
  oracle     1[a_i == truth] (the only scheme that sees the truth)
  self       1[a_i == m's own plurality] (TTRL)
  self-soft  the share of m's own parseable votes that a_i has (the lab's soft variant; SRT uses the hard vote)
  peer       1[a_i == the partner's plurality] (Co-RL, two members)
  ring       1[a_i == the next member's plurality], A <- B <- C <- A (Co-RL, three or more)
  cohort     1[a_i == the plurality of the pooled votes of all other members], ties discarded
  teacher    1[a_i == the plurality of a frozen copy of a chosen member]
A prompt whose winning share is below tau is unlabeled: all its rollouts get 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

Answer = Optional[str]

_M32 = 0xFFFFFFFF

# ---------------------------------------------------------------------------------------------
# The lab's seeded stream (src/core/random.ts): sfc32 seeded through splitmix32 from an FNV-1a
# hash of (seed, path). Only ties are drawn from it here.
# ---------------------------------------------------------------------------------------------


def _imul(a: int, b: int) -> int:
    return (a * b) & _M32


def _splitmix32(seed: int):
    state = seed & _M32

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B9) & _M32
        z = state
        z = _imul(z ^ (z >> 16), 0x85EBCA6B)
        z = _imul(z ^ (z >> 13), 0xC2B2AE35)
        return (z ^ (z >> 16)) & _M32

    return draw


def _utf16_units(s: str) -> List[int]:
    """The UTF-16 code units of s, as JavaScript's charCodeAt sees them."""
    b = s.encode("utf-16-le", "surrogatepass")
    return [b[i] | (b[i + 1] << 8) for i in range(0, len(b), 2)]


def _utf16_key(s: str) -> bytes:
    """Sort key equal to JavaScript's default string order (UTF-16 code units)."""
    return s.encode("utf-16-be", "surrogatepass")


def _hash_path(seed: int, path: str) -> int:
    h = (0x811C9DC5 ^ seed) & _M32
    for unit in _utf16_units(path):
        h ^= unit
        h = _imul(h, 0x01000193)
    return _splitmix32(h)()


class Rng:
    """A named stream of the lab's generator tree; the same (seed, path) gives the same draws."""

    def __init__(self, seed: int, path: str = "") -> None:
        self.seed = seed
        self.path = path
        mix = _splitmix32(_hash_path(seed & _M32, path))
        self._a, self._b, self._c, self._d = mix(), mix(), mix(), mix()
        for _ in range(12):
            self.next_uint32()

    def child(self, name: str) -> "Rng":
        return Rng(self.seed, f"{self.path}/{name}" if self.path else name)

    def next_uint32(self) -> int:
        a, b, c, d = self._a, self._b, self._c, self._d
        t = (((a + b) & _M32) + d) & _M32
        self._d = (d + 1) & _M32
        self._a = (b ^ (b >> 9)) & _M32
        self._b = (c + ((c << 3) & _M32)) & _M32
        c = (((c << 21) & _M32) | (c >> 11)) & _M32
        self._c = (c + t) & _M32
        return t

    def next(self) -> float:
        return self.next_uint32() / 4294967296

    def int(self, n: int) -> int:
        if not n >= 1:
            raise ValueError(f"Rng.int needs n >= 1, got {n}")
        return int(self.next() * n)


def ballot_rng(seed: int, arm_id: str, member_id: str, step: int) -> Rng:
    """The stream that breaks a member's ties at an RL step (1-based), as the lab's ballotRng."""
    return Rng(seed).child(f"ties/{arm_id}/{member_id}/{step}")


def teacher_voter_id(teacher_id: str) -> str:
    """The voter name of a frozen teacher in the tie streams (the lab's `teacher-<id>`)."""
    return f"teacher-{teacher_id}"


# ---------------------------------------------------------------------------------------------
# Plurality votes (src/core/rewards/vote.ts)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vote:
    """One prompt's vote. label None: unlabeled (no parseable vote, share < tau, or a discarded tie)."""

    label: Answer
    count: int
    parseable: int
    majority_ratio: float
    tied: bool


def vote_counts(answers: Sequence[Answer]) -> Dict[str, int]:
    """Votes per answer, None skipped, in first-seen order."""
    counts: Dict[str, int] = {}
    for a in answers:
        if a is None:
            continue
        counts[a] = counts.get(a, 0) + 1
    return counts


def plurality_vote(answers: Sequence[Answer], rng: Optional[Rng], tau: float = 0.0) -> Vote:
    """The plurality answer of one prompt's votes.

    A tie is broken by rng.int over the tied answers in UTF-16 code-unit order (rng is drawn from
    only on a tie); rng None discards a tie (the prompt is unlabeled: the cohort scheme's rule).
    A winning share below tau leaves the prompt unlabeled.
    """
    counts = vote_counts(answers)
    parseable = sum(counts.values())
    if parseable == 0:
        return Vote(None, 0, 0, 0.0, False)
    count = max(counts.values())
    top = [a for a, c in counts.items() if c == count]
    tied = len(top) > 1
    ratio = count / parseable
    if not tied:
        label: Answer = top[0]
    elif rng is None:
        label = None
    else:
        top.sort(key=_utf16_key)
        label = top[rng.int(len(top))]
    if ratio < tau:
        label = None
    return Vote(label, count, parseable, ratio, tied)


def group_size(answers: Sequence[Answer], B: int, what: str = "answers") -> int:
    if not isinstance(B, int) or B < 1:
        raise ValueError(f"B must be a positive integer, got {B}")
    if len(answers) == 0 or len(answers) % B != 0:
        raise ValueError(f"{what}: length {len(answers)} is not a positive multiple of B = {B}")
    return len(answers) // B


def plurality_votes(answers: Sequence[Answer], B: int, rng: Optional[Rng], tau: float = 0.0) -> List[Vote]:
    """Votes of B prompts; prompt b's tie is broken with rng.child('prompt<b>')."""
    g = group_size(answers, B)
    return [
        plurality_vote(answers[b * g : (b + 1) * g], None if rng is None else rng.child(f"prompt{b}"), tau)
        for b in range(B)
    ]


def pool_ballots(answer_sets: Sequence[Sequence[Answer]], B: int) -> List[Answer]:
    """Several voters' prompt-major answers pooled prompt by prompt (voter 0's, then voter 1's, ...)."""
    if not answer_sets:
        raise ValueError("pool_ballots needs at least one voter")
    sizes = [group_size(s, B, f"voter {i}") for i, s in enumerate(answer_sets)]
    pooled: List[Answer] = []
    for b in range(B):
        for s, n in zip(answer_sets, sizes):
            pooled.extend(s[b * n : (b + 1) * n])
    return pooled


# ---------------------------------------------------------------------------------------------
# Rewards (src/core/rewards/schemes.ts)
# ---------------------------------------------------------------------------------------------


def oracle_reward(answer: Answer, truth: str) -> float:
    return 1.0 if answer is not None and answer == truth else 0.0


def agreement_reward(answer: Answer, label: Answer) -> float:
    return 1.0 if answer is not None and label is not None and answer == label else 0.0


def self_soft_reward(answer: Answer, counts: Dict[str, int], vote: Vote) -> float:
    if answer is None or vote.label is None or vote.parseable == 0:
        return 0.0
    return counts.get(answer, 0) / vote.parseable


def rewards_for_labels(answers: Sequence[Answer], G: int, labels: Sequence[Answer]) -> List[float]:
    """1[a_i == label of its prompt] for every rollout (peer, ring, cohort and teacher rewards)."""
    if len(answers) != len(labels) * G:
        raise ValueError(f"answers: length {len(answers)} != B * G = {len(labels) * G}")
    return [agreement_reward(a, labels[i // G]) for i, a in enumerate(answers)]


@dataclass
class RewardOutput:
    rewards: List[float]
    labels: List[Answer]
    votes: Optional[List[Vote]]


def compute_rewards(
    scheme: str,
    answers: Sequence[Answer],
    B: int,
    G: int,
    *,
    truths: Optional[Sequence[str]] = None,
    rng: Optional[Rng] = None,
    ballots: Optional[Sequence[Answer]] = None,
    supervisor: Optional[Sequence[Answer]] = None,
    supervisor_rng: Optional[Rng] = None,
    others: Optional[Sequence[Sequence[Answer]]] = None,
    tau: float = 0.0,
) -> RewardOutput:
    """Rewards of one member's B x G rollouts under one scheme (the lab's computeRewards).

    oracle: truths; self / self-soft: rng (the member's tie stream) and optionally ballots (its
    n_vote >= G votes per prompt; default the rewarded answers); peer / ring / teacher: supervisor
    (the supervising voter's answers) and supervisor_rng (that voter's tie stream); cohort: others
    (every other member's answers).
    """
    if not isinstance(G, int) or G < 1:
        raise ValueError(f"G must be a positive integer, got {G}")
    if group_size(answers, B) != G:
        raise ValueError(f"answers: length {len(answers)} != B * G = {B * G}")
    if scheme == "oracle":
        if truths is None or len(truths) != B:
            raise ValueError(f"truths: need {B}, got {None if truths is None else len(truths)}")
        rewards = [oracle_reward(a, truths[i // G]) for i, a in enumerate(answers)]
        return RewardOutput(rewards, list(truths), None)
    if scheme in ("self", "self-soft"):
        if rng is None:
            raise ValueError(f"{scheme} needs the member's tie stream (rng)")
        votes_of = list(answers) if ballots is None else list(ballots)
        n = group_size(votes_of, B, "ballots")
        votes = plurality_votes(votes_of, B, rng, tau)
        rewards = []
        for b in range(B):
            group = answers[b * G : (b + 1) * G]
            if scheme == "self":
                rewards.extend(agreement_reward(a, votes[b].label) for a in group)
            else:
                counts = vote_counts(votes_of[b * n : (b + 1) * n])
                rewards.extend(self_soft_reward(a, counts, votes[b]) for a in group)
        return RewardOutput(rewards, [v.label for v in votes], votes)
    if scheme in ("peer", "ring", "teacher"):
        if supervisor is None or supervisor_rng is None:
            raise ValueError(f"{scheme} needs the supervising voter's answers and tie stream")
        votes = plurality_votes(supervisor, B, supervisor_rng, tau)
        labels = [v.label for v in votes]
        return RewardOutput(rewards_for_labels(answers, G, labels), labels, votes)
    if scheme == "cohort":
        if not others:
            raise ValueError("cohort needs the other members' answers")
        votes = plurality_votes(pool_ballots(others, B), B, None, tau)
        labels = [v.label for v in votes]
        return RewardOutput(rewards_for_labels(answers, G, labels), labels, votes)
    raise ValueError(f"scheme {scheme!r} is not exported (exported: {', '.join(EXPORTED_SCHEMES)})")


def heldout_score(groups: Sequence[Sequence[Answer]], truths: Sequence[str], rng: Rng) -> dict:
    """The held-out evaluation of G answers per problem (the lab's scoreHeldOut, src/core/evaluate.ts):
    pass@1 = the mean over problems of the share of their G answers that are right (an unbiased
    estimate of single-sample accuracy); maj@G = the share of problems whose plurality is right,
    problem i's tie broken by rng's stream ties/prompt<i>."""
    if len(groups) != len(truths):
        raise ValueError(f"{len(groups)} answer groups for {len(truths)} problems")
    n = len(groups)
    if n == 0:
        return {"pass_at_1": 0.0, "maj_at_g": 0.0, "plurality": []}
    accuracy = [sum(oracle_reward(a, t) for a in g) / len(g) for g, t in zip(groups, truths)]
    flat = [a for g in groups for a in g]
    plurality = [v.label for v in plurality_votes(flat, n, rng.child("ties"))]
    return {
        "pass_at_1": sum(accuracy) / n,
        "maj_at_g": sum(oracle_reward(label, t) for label, t in zip(plurality, truths)) / n,
        "plurality": plurality,
    }


EXPORTED_SCHEMES = ("oracle", "self", "self-soft", "peer", "ring", "cohort", "teacher")
EXCHANGE_SCHEMES = ("peer", "ring", "cohort")

# ---------------------------------------------------------------------------------------------
# What members exchange through the shared directory, and the label each is rewarded against
# ---------------------------------------------------------------------------------------------


def own_votes(answers: Sequence[Answer], B: int, seed: int, arm_id: str, member_id: str, step: int, tau: float) -> List[Vote]:
    """A member's own plurality votes at an RL step, ties broken by its own stream."""
    return plurality_votes(answers, B, ballot_rng(seed, arm_id, member_id, step), tau)


def exchange_payload(answers: Sequence[Answer], B: int, votes: Sequence[Vote]) -> dict:
    """What a member sends its arm's other members: its labels (peer, ring) and its ballots (cohort)."""
    n = group_size(answers, B)
    return {
        "labels": [v.label for v in votes],
        "ballots": [list(answers[b * n : (b + 1) * n]) for b in range(B)],
    }


def supervision_labels(scheme: str, members: Sequence[str], me: str, payloads: Dict[str, dict], tau: float) -> List[Answer]:
    """The labels member `me` is rewarded against, from its arm's exchanged payloads.

    peer: the partner's own labels; ring: the next member's (A follows B, B follows C, C follows A);
    cohort: the plurality of the pooled ballots of every other member (arm order), ties discarded.
    `payloads` maps member id to exchange_payload (its own entry is not needed).
    """
    i = list(members).index(me)
    n = len(members)
    if scheme == "peer":
        if n != 2:
            raise ValueError(f"peer needs exactly 2 members, got {n}")
        return list(payloads[members[1 - i]]["labels"])
    if scheme == "ring":
        if n < 3:
            raise ValueError(f"ring needs at least 3 members, got {n}")
        return list(payloads[members[(i + 1) % n]]["labels"])
    if scheme == "cohort":
        others = [m for m in members if m != me]
        B = len(payloads[others[0]]["ballots"])
        sets = [[a for group in payloads[m]["ballots"] for a in group] for m in others]
        return [v.label for v in plurality_votes(pool_ballots(sets, B), B, None, tau)]
    raise ValueError(f"scheme {scheme!r} exchanges nothing")


# ---------------------------------------------------------------------------------------------
# Answer extraction (src/core/tasks/extract.ts)
# ---------------------------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]+")


def is_well_formed_answer(task_id: str, answer: str, difficulty: int) -> bool:
    """The lab's per-task answer forms: digitsum one digit; addition no leading zero, at most n + 1
    digits; reverse exactly n digits."""
    if not _DIGITS.fullmatch(answer):
        return False
    if task_id == "digitsum":
        return len(answer) == 1
    if task_id == "addition":
        return (answer == "0" or answer[0] != "0") and len(answer) <= difficulty + 1
    if task_id == "reverse":
        return len(answer) == difficulty
    raise ValueError(f"unknown task {task_id!r}")


def _after_last_marker(text: str) -> Optional[str]:
    cut = text.rfind(">")
    if cut < 0:
        return None
    answer = text[cut + 1 :].strip()
    if answer.endswith("."):
        answer = answer[:-1].rstrip()
    return answer


_INTEGER = re.compile(r"[+-]?[0-9]+")
_LEADING_ZEROS = re.compile(r"^0+(?=.)")
# The longest answer a task of one's own may have (the lab's TASK_LIMITS.answerChars).
CUSTOM_ANSWER_CHARS = 24


def normalise_custom_answer(s: str, numeric: bool) -> Answer:
    """A task of one's own compares answers after this (the lab's src/core/tasks/custom/normalise.ts):
    spaces at either end dropped (an answer then empty casts no vote), letters keep their case, and
    where every answer of the task is an integer, an integer is read as a number ('07', '+7' and '7'
    are one answer; '-0' is '0')."""
    t = s.strip()
    if t == "":
        return None
    if numeric and _INTEGER.fullmatch(t):
        negative = t[0] == "-"
        digits = _LEADING_ZEROS.sub("", t.lstrip("+-"))
        return "-" + digits if negative and digits != "0" else digits
    return t


def extract_answer(text: str, task_id: str, difficulty: int, truncated: bool = False, numeric_answers: bool = False) -> Answer:
    """The answer a completion votes for, or None.

    The lab's rule: a completion cut off at the length cap (no end-of-sequence token) casts no
    vote; otherwise the answer is the text after the LAST '>', and must be a well-formed answer of
    the task. For instruct models, surrounding whitespace and one trailing period are dropped
    first (the lab's tiny vocabulary has neither, so on lab completions the rule is the lab's).
    A task of one's own (task_id "custom") normalises the text after the '>' as the lab does
    (normalise_custom_answer; numeric_answers from config.json), with no period dropped: its
    answers may end in one.
    """
    if truncated:
        return None
    if task_id == "custom":
        cut = text.rfind(">")
        if cut < 0:
            return None
        answer = normalise_custom_answer(text[cut + 1 :], numeric_answers)
        return answer if answer is not None and len(answer) <= CUSTOM_ANSWER_CHARS and ">" not in answer else None
    answer = _after_last_marker(text)
    if answer is None or not _DIGITS.fullmatch(answer):
        return None
    return answer if is_well_formed_answer(task_id, answer, difficulty) else None


_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def normalize_number(s: str) -> Optional[str]:
    """A number's canonical spelling: commas, '$' and spaces dropped, '72.0' -> '72', '-0' -> '0'."""
    t = s.replace(",", "").replace("$", "").replace(" ", "")
    if not _NUMBER.fullmatch(t):
        return None
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if "." in t:
        whole, frac = t.split(".")
        frac = frac.rstrip("0")
        t = whole if not frac else f"{whole}.{frac}"
    t = t.lstrip("0") or "0"
    if t.startswith("."):
        t = "0" + t
    return "-" + t if neg and t != "0" else t


def extract_number_answer(text: str, truncated: bool = False) -> Answer:
    """The named math data sets' rule (--dataset gsm8k): the number after the last '>'."""
    if truncated:
        return None
    answer = _after_last_marker(text)
    return None if answer is None else normalize_number(answer)


def gsm8k_truth(solution: str) -> str:
    """GSM8K's reference answer: the number after '####'."""
    if "####" not in solution:
        raise ValueError("a GSM8K solution without '####'")
    truth = normalize_number(solution.split("####")[-1].strip())
    if truth is None:
        raise ValueError(f"a GSM8K answer that is not a number: {solution.split('####')[-1].strip()!r}")
    return truth
