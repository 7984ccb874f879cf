0# nothing here
