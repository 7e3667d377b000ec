import {
  to = aws_instance.a
}
