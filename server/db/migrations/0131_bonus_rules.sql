-- The welcome offer and the referral reward, set on the desk's Settings (src/domain/bonusRules.ts):
-- the values they had as constants. A grant reads them; a granted bonus keeps its own amounts.
INSERT INTO app_settings (key, value) VALUES ('bonus_rules', '{
  "welcome": {"code": "WELCOME100", "title": "100% welcome bonus", "percent": 100, "cap": 10000, "wagerTimes": 5},
  "referral": {"percent": 10, "cap": 1000, "wagerTimes": 1}
}'::jsonb) ON CONFLICT (key) DO NOTHING;
