"""The program stage's implementation: final IR to a simulator program.

`mtia_compiler.program_stage.emit_program` is the entry point; the modules
here are its parts (docs/program-stage.md describes the translation).
"""
