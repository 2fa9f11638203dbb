from toolc.cli import main

main()
