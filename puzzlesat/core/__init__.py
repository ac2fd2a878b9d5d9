"""Types shared by every puzzle and backend: errors, encodings, models and results."""
