-- A referral reward waits for the referred player's own play. Their first approved deposit sets the reward (10 %,
-- up to ₹1,000) and what they must wager of their own money on settled markets first (the deposit, once), counted
-- as bonus wagering is (src/domain/bonus.ts, main-wallet bets). Once met the reward is paid (referral_rewards),
-- unless they share a payout account, device or address with their referrer: then it is withheld and signalled.
CREATE TABLE referral_qualifications (
  referred_user_id text PRIMARY KEY REFERENCES users(id),
  referrer_id text NOT NULL REFERENCES users(id),
  deposit_id text NOT NULL REFERENCES deposit_requests(id),
  reward bigint NOT NULL CHECK (reward > 0),
  wagering_required bigint NOT NULL CHECK (wagering_required > 0),
  wagered bigint NOT NULL DEFAULT 0 CHECK (wagered >= 0),
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'paid', 'withheld')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  CHECK ((status = 'waiting') = (decided_at IS NULL))
);
CREATE INDEX referral_qualifications_referrer ON referral_qualifications (referrer_id);
