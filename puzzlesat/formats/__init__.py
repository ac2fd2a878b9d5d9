"""Writers of standard solver formats and readers of solver output."""
