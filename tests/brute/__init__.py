"""Brute force from the rules of docs/puzzles.md, and random tiny instances that cover the corners of each
rule. Nothing here imports the package's encoders or references: a brute force reads the instance
text itself and tries every candidate answer, so that it shares no code, and no mistake, with them."""
