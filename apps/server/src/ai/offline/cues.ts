/** Cue phrases (weight ≈ how strongly a phrase signals the item) for each list-shaped prompt. */
export type Cue = readonly [RegExp, number];

/** A decision said as such: "we decided", "they've agreed", "it was settled". */
export const DECIDED = /\b(?:we(?:'ve| have)?|they(?:'ve| have)?|it was|committee) (?:decided|agreed|settled|concluded|chose|chosen)\b/i;

/** A choice stated as made: "we're going with a simple battery", "hand dynamos are definitely out", "curved is the way to go". */
export const SETTLED =
  /\b(?:we(?:'re| are) going (?:with|for)|we(?:'ve| have) (?:basically |now )?(?:worked out|settled on|gone (?:with|for))|(?:is|are) (?:definitely |totally |completely )?out\b(?! of)|(?:is|are) the way to go|final decision)\b/i;

export const DECISION_CUES: readonly Cue[] = [
  [DECIDED, 3],
  [SETTLED, 3],
  [/\b(?:decision|decided|agreed|agreement|consensus|approved?|resolved)\b/i, 2],
  [/\blet's (?:go|use|have|do|make|stick|keep|say|put|take|choose|settle)\b/i, 2],
  [/\bwe(?:'ll| will| are going to|'re going to|'re gonna) (?:go (?:for|with)|use|have|stick|keep|make|choose|do)\b/i, 2],
  [/\b(?:go (?:for|with)|settle (?:on|for)|stick with|opt for)\b/i, 1.5],
  [/\b(?:final(?:ly|ise|ize)?|conclu(?:de|sion)|definitely|recommend(?:ation)?s?)\b/i, 1],
  [/\b(?:it(?:'s| is| will be) (?:gonna|going to) be|we should|should be)\b/i, 1],
];

export const ACTION_CUES: readonly Cue[] = [
  [/\bI(?:'ll| will| am going to|'m going to|'m gonna| shall)\b/i, 2],
  [/\b(?:you|he|she|they|we)(?:'ll| will) (?:send|prepare|check|look|make|write|draft|contact|follow|e-?mail|circulate|set up|bring|do|work|find|present|design|have a look|get)\b/i, 2.5],
  [/\b(?:can|could) you (?:please )?(?:send|prepare|check|look|make|write|draft|contact|follow|e-?mail|circulate|bring|do|find)\b/i, 2.5],
  [/\b(?:action(?: point| item)?s?|task|assignment|homework|to-?do|responsib(?:le|ility)|take care of|in charge of)\b/i, 2],
  [/\b(?:need(?:s)? to|have to|has to|must|got to)\b/i, 1],
  [/\b(?:we|you)(?:'re| are)(?: all)? (?:going to|gonna)\b|\blet's\b/i, 1.5],
  [/\bby (?:next|tomorrow|monday|tuesday|wednesday|thursday|friday|the end|the next)\b/i, 1.5],
  [/\b(?:send|e-?mail|circulate|prepare|write (?:up|to)|report back|get back to)\b/i, 1],
];

export const NEXT_CUES: readonly Cue[] = [
  [/\bnext (?:meeting|time|step|steps|week|session|phase|stage|month|year)\b/i, 3],
  [/\b(?:follow[- ]up|going forward|from now on|in the meantime|before the next|after (?:this|the) meeting|reconvene)\b/i, 2.5],
  [/\bwe(?:'ll| will| are going to|'re going to|'re gonna) (?:meet|see|discuss|look at|come back|talk|get back|move on|work on|start)\b/i, 2],
  [/\b(?:then we(?:'ll| will)|after that|afterwards|later on|tomorrow|next)\b/i, 1],
  [/\b(?:plan is|the plan|timeline|deadline|schedule|individual work|come back to)\b/i, 1.5],
];

export const ISSUE_CUES: readonly Cue[] = [
  [/\b(?:problem|issue|concern(?:ed|s)?|worr(?:y|ied|ies|ying)|risk|difficult(?:y|ies)?|challeng(?:e|es|ing)|struggl\w*)\b/i, 2],
  [/\b(?:not sure|unclear|don't know|do not know|no idea|disagree|unresolved|open question|tricky|barrier)\b/i, 2],
  [/\b(?:lack|shortage|pressure|gap|fail\w*|can't|cannot|doesn't work|won't work|too (?:many|much|expensive|big|small))\b/i, 1.5],
  [/\b(?:but|however|although|still)\b/i, 0.5],
];

export const MISSING_CUES: readonly Cue[] = [
  [/\b(?:don't know|do not know|no idea|not sure|unknown|haven't (?:got|seen|decided|heard)|not (?:yet )?(?:clear|known|decided|available))\b/i, 2.5],
  [/\b(?:find out|figure out|look into|check (?:on|with|whether|if)|clarify|confirm|investigate|need (?:more )?(?:information|data|details|figures|evidence))\b/i, 2.5],
  [/\b(?:information|data|evidence|figures|details|research|numbers|statistics|survey)\b/i, 1],
  [/\b(?:depends on|to be (?:decided|confirmed|determined)|tbd|we'll see|we will see|missing)\b/i, 2],
];

export const GOAL_CUES: readonly Cue[] = [
  [/\b(?:goal|aim|objective|purpose|mission|target|agenda)s?\b/i, 2.5],
  [/\b(?:we want to|we're trying to|we are trying to|we need to|we have to|we're here to|we are here to|the idea is|we're going to|we are going to)\b/i, 1.5],
  [/\b(?:today|this meeting|in this meeting|this session|inquiry|focus|priority|achieve|intend|hope to|plan to)\b/i, 1.5],
  [/\b(?:should be|must be|has to be|want(?:s)? it to be)\b/i, 1],
];

/** Replies that accept a proposal: a proposal followed by one reads as a decision. */
export const AGREEMENT =
  /^(?:yes|yeah|yep|okay|ok|agreed|sure|definitely|absolutely|exactly|probably|i think so|sounds (?:good|great|fine)|that's fine|fine|good|great|right|i agree|why not|of course|fair enough|let's do (?:that|it)|(?:that's |that is |it's )?(?:a |an )?(?:good|great|nice|excellent) idea)\b/i;

/** Replies that show a question got no real answer. */
export const NON_ANSWER = /\b(?:don't know|do not know|no idea|not sure|can't say|cannot say|we'll see|good question|depends|haven't)\b/i;

export function cueScore(text: string, cues: readonly Cue[]): number {
  let score = 0;
  for (const [pattern, weight] of cues) if (pattern.test(text)) score += weight;
  return score;
}

/** A speaker stating a position: an opinion, a preference, a proposal, agreement or disagreement. */
export const OPINION_CUES: readonly Cue[] = [
  [/\bI (?:think|believe|feel|reckon|would (?:say|prefer|rather|suggest)|'d (?:say|prefer|rather|suggest)|prefer|suggest|propose|recommend|agree|disagree)\b/i, 2],
  [/\b(?:we|you) (?:should|could|ought to|must)\b|\bwhy don't we\b|\bhow about\b/i, 1.5],
  [/\b(?:in my (?:view|opinion)|my (?:concern|worry|point|suggestion|proposal|preference))\b/i, 2],
  [/\b(?:better|worse|best|prefer(?:able)?|important|essential|too (?:expensive|complicated|big|small))\b/i, 1],
];

/**
 * A proposal and who it is for: what someone suggests the meeting do or choose ("what about…", "we
 * could…", "it can still be…"). "It would be…" and "it could be…" suppose or describe rather than propose.
 */
export const PROPOSALS: readonly Cue[] = [
  [/\b(?:what|how) about\b|\bwhy don't we\b|\bshall we\b|\blet's\b/i, 2],
  [/\bwe (?:should|could|can|might|will|'ll|need to)\b|\bI (?:suggest|propose|recommend|would go for|'d go for)\b/i, 1.5],
  [/\b(?:it|this|that)(?: also| still| just)? (?:(?:can|will|'ll) (?:still |just |also )?be|(?:should|has to|must|needs to) (?:still |just |also )?\w+)\b|\bmaybe (?:we|have|use|get|go)\b/i, 1],
];

/** Proposals, and the words of choosing that make one stronger ("go with", "instead of"). */
export const PROPOSAL_CUES: readonly Cue[] = [...PROPOSALS, [/\b(?:go (?:for|with)|settle (?:on|for)|stick with|opt for|instead of)\b/i, 1]];

/** A reply that turns a proposal down, puts it in doubt or only thanks the speaker ("Okay, thank you."). */
export const NOT_ACCEPTING = /\b(?:but|disagree|don't think|do not think|not sure|no way|rather not|too expensive|thanks?)\b/i;
