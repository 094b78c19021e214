"""Config: the schema (`schema`, records checked by `fields`) and loading with precedence (`load`)."""
