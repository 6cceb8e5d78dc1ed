# Convenience wrappers; the scripts work without make (a fresh Debian may not have it).
.PHONY: video stills test bench bootstrap
video:
	bash scripts/dev.sh video
stills:
	bash scripts/dev.sh stills
test:
	bash scripts/dev.sh test
bench:
	bash scripts/dev.sh bench
bootstrap:
	bash scripts/bootstrap.sh
