# Type stubs for the parts of python-sat (PySAT) that puzzlesat uses; PySAT ships none.
