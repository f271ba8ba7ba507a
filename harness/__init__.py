"""What the tests, the benchmarks and the tools share to drive the bot from outside: a simulated
Discord (harness.sim), a throwaway PostgreSQL server (harness.pgserver) and random players' choices
(harness.honga). Development only: the bot never imports it, and it is not installed with it."""
