"""The project's harnesses: soak, fuzzing, the kernel's differential runs, mutation testing."""
