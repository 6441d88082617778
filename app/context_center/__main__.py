from context_center.entry import main

raise SystemExit(main())
