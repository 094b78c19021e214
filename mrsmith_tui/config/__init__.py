"""Config: the pydantic schema (`schema`) and loading with precedence (`load`)."""
