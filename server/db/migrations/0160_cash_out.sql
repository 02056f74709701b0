-- Cash out (docs/architecture.md): its hedge bets are bets like any other, marked with the quote they took, so My
-- Bets, statements and profit and loss label them and settlement settles them as it does every bet.
ALTER TABLE bets ADD COLUMN cash_out_quote text;
