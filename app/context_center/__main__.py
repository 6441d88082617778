from context_center.cli import main

raise SystemExit(main())
