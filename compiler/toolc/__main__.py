from toolc.entry import main

main()
