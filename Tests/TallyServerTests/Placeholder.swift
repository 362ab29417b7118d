enum PlaceholderTests {}
