"""The write gate for agents: the decision, the durable approval queue, secret detection and
phrase overlap."""
