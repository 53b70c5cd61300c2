"""HTTP for every request the project makes: one policy (proxies, TLS, no redirect, the key's
origin) and the two stacks under it, httpx for control requests and the run's own wire."""
