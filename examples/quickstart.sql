-- deltaview quickstart: a table, two maintained views, and their deltas
-- printed live after every commit.

CREATE TABLE orders (
    id     integer PRIMARY KEY,
    cust   text NOT NULL,
    amount numeric(10,2) NOT NULL CHECK (amount >= 0),
    status text NOT NULL DEFAULT 'open'
);

INSERT INTO orders VALUES
    (1, 'ann', 120.00, 'open'),
    (2, 'bob',  15.50, 'open'),
    (3, 'ann',   8.25, 'shipped');

-- Maintained incrementally: each commit applies a correction proportional
-- to what changed; the query is never run again.
CREATE MATERIALIZED VIEW big_open AS
    SELECT id, upper(cust) AS customer, amount
    FROM orders
    WHERE status = 'open' AND amount >= 100;

CREATE MATERIALIZED VIEW customers AS
    SELECT DISTINCT cust FROM orders;

SELECT * FROM big_open;

-- From now on, every commit that changes a view prints its delta:
-- ts is the commit's logical time, diff +1 for a row in, -1 for a row out.
SUBSCRIBE big_open;
SUBSCRIBE customers;

INSERT INTO orders VALUES (4, 'cy', 250.00, 'open');

-- An update is a retraction of the old row and an assertion of the new.
UPDATE orders SET amount = amount * 2 WHERE id = 2;

-- A transaction is one step: both views change once, together.
BEGIN;
UPDATE orders SET status = 'shipped' WHERE id = 1;
DELETE FROM orders WHERE cust = 'bob';
COMMIT;

-- Changes that cancel out print nothing.
BEGIN;
UPDATE orders SET amount = 0 WHERE id = 4;
UPDATE orders SET amount = 250.00 WHERE id = 4;
COMMIT;

-- A rolled-back transaction changes no view.
BEGIN;
DELETE FROM orders;
ROLLBACK;

-- Reading a view returns its maintained rows.
SELECT * FROM customers ORDER BY cust;
SELECT name, rows, steps FROM deltaview_views;
