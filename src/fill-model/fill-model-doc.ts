/** The fill model in words, printed into every report (the precise version is the doc comment of fill-model.ts). */
export const FILL_MODEL_DOC = `Fill model for polled snapshots (a resting BUY at price P; a sell is the mirror image).
Orders act at the venue after the request latency and answer after the response latency, in virtual time.
On arrival an order that crosses the current snapshot takes the displayed liquidity up to P at the levels' prices
(our earlier takers' use of the same snapshot is subtracted); post-only orders that would take are rejected; ioc
cancels the rest. A resting order joins the back of the queue: Q = quantity displayed at P on arrival.
Between two snapshots s0 -> s1 (D0, D1: bid quantity at P; X1: ask quantity at <= P in s1; Vp, Vt: recorded
sell-aggressor trade volume at P and through P, when the file has trades):
- PESSIMISTIC: a decrease at P is a cancellation behind us; only proven counterparties fill:
  fill = min(left, max(0, X1 - X0) + Vt + max(0, Vp - Q)); Q := min(max(0, Q - Vp), D1); Q := 0 while X1 > 0.
- OPTIMISTIC: X1 > 0 or Vt > 0 fills everything left; otherwise every decrease at P is a trade at the front:
  fill = min(left, max(0, (D0 - D1) - Q)). With recorded trades only traded volume fills (unexplained decreases are
  cancellations ahead of us): Q' = max(0, Q - max(0, (D0 - D1) - Vp)); fill = min(left, max(0, Vp - Q')).
- The optimistic lane's parameters (fillModel: block; bot parity --fit tunes them to a recorded session): queueAhead
  a: Q = a x D on arrival (1 = back of the queue); decreaseTrades b, without recorded trades: the share of a decrease
  that traded, the rest cancellations ahead of us: fill = min(left, max(0, b x (D0 - D1) - Q)). Defaults 1 and 1.
Fills are partial when the evidence is smaller than the order, rounded down to the amount step, at P, as maker,
with the market's maker fee. Recorded trades tighten the band from both sides. Our fills do not remove liquidity
from later snapshots (the recording is the market without us); hidden orders are invisible; FIFO queues assumed.`;
