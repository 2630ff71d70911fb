"""Playtests: goldfish and head-to-head batches, round robins, statistics and the bot ladder."""
