moved {
  from = module.a
  to   = test_thing.b
}
