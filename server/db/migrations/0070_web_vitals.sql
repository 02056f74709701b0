-- Real-user vitals: what players' browsers measured (web-vitals), one row per measurement. No user id, no
-- address, no full URL: only the route pattern, the device class and the connection type, for the
-- operator's 75th percentiles (`npm run admin -- vitals`).
CREATE TABLE web_vitals (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  name        text NOT NULL CHECK (name IN ('LCP', 'INP', 'CLS', 'TTFB')),
  value       double precision NOT NULL CHECK (value >= 0),
  rating      text NOT NULL CHECK (rating IN ('good', 'needs-improvement', 'poor')),
  route       text NOT NULL,
  device      text NOT NULL CHECK (device IN ('mobile', 'tablet', 'desktop')),
  connection  text
);

CREATE INDEX web_vitals_recent ON web_vitals (recorded_at);
