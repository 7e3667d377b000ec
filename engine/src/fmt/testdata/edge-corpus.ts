// Hand-written inputs for the formatter, each formatted by `terraform fmt` into
// terraform-edge.json (see record-terraform.ts). `file` sets the name (and so the extension);
// cases with syntax errors must be refused by both.
export interface EdgeCase {
  name: string;
  src: string;
  file?: string;
}

export const edgeCorpus: EdgeCase[] = [
  { name: "empty", src: "" },
  { name: "only-newline", src: "\n" },
  { name: "only-spaces", src: "   " },
  { name: "blank-lines-kept", src: "\n\n\na=1\n\n\n\nb=2\n\n" },
  { name: "no-trailing-newline", src: "a=1" },
  { name: "trailing-spaces-at-eof", src: "a = 1   " },
  { name: "trailing-whitespace", src: "a = 1   \nb = 2\t\n  \n" },
  { name: "comment-no-newline", src: "a = 1 # c" },
  { name: "only-comment", src: "# hello" },
  { name: "crlf", src: "a=1\r\nbbb = 2\r\n# c\r\nblock {\r\n  x=1\r\n}\r\n" },
  { name: "crlf-heredoc", src: 'x = <<EOT\r\n  hi\r\nEOT\r\ny=1\r\n' },
  { name: "bom", src: "\ufeffa=1\n" },
  { name: "tabs", src: "block {\n\tx\t=\t1\n\tyy = 2\n}\n" },
  {
    name: "alignment-runs",
    src: `a = 1
bbbb = 2
cc = "x"

dddddd = 3
e = 4
# comment breaks
ff = 5
g {
x = 1
yyy = 2
}
`,
  },
  {
    name: "alignment-multiline-value",
    src: `a = 1
bb = {
c = 1
dddd = 2
}
eee = 3
f = [1,
2]
gggg = 4
`,
  },
  {
    name: "comment-alignment",
    src: `a = 1 # one
bbbb = 2 # two
ccc = "three" // three
d = 4 /* four */
e = 5
x { # opener
}
`,
  },
  {
    name: "comments-everywhere",
    src: `# lead
/* block
   comment */
resource "a" "b" { # trailing
  # inside
  x = 1 // line
  /* before */ y = 2
  z = [
    1, # one
    2, /* two */
  ]
}
`,
  },
  {
    name: "nested-blocks",
    src: `resource "aws_instance" "web" {
ami = "ami-123"
instance_type = "t2.micro"
network_interface {
device_index = 0
network_interface_id = aws_network_interface.foo.id
nested {
deep = true
}
}
lifecycle {
create_before_destroy = true
}
}
`,
  },
  { name: "one-line-blocks", src: 'a {}\nb { }\nc {x=1}\nd "l" { y = "z" }\ne   {   }\n' },
  {
    name: "heredocs",
    src: `x = <<EOT
  keep   this   exactly
	tabs too
EOT
y = <<-EOT
    indented \${ var.a }
    %{ if true }yes%{ endif }
    EOT
  z=1
block {
content = <<EOF
{
  "json": true
}
EOF
}
`,
  },
  {
    name: "heredoc-in-call",
    src: `x = jsonencode(<<EOT
a
EOT
)
y = [<<EOT
b
EOT
, "c"]
`,
  },
  {
    name: "multi-line-expressions",
    src: `x = a ? b : c
y = (
a +
b
)
z = concat(
[1,2],
[3, 4],
)
w = var.enabled ? {
a = 1
} : {}
`,
  },
  {
    name: "tuples-objects",
    src: `t = [1,2,3]
t2 = [ 1 , 2 , 3 , ]
o = {a=1,b=2}
o2 = { "k" = 1, (var.x) = 2, c: 3 }
o3 = {
a=1
bbb=2
"c d"=3
}
empty = {}
emptyt = []
spaced = {   }
`,
  },
  {
    name: "operators",
    src: `a = 1+2*3-4/5%6
b = -1
c = !true
d = a==b&&c!=d||e<f&&g<=h||i>j&&k>=l
e = 1 - -1
f = (-a) - (-b)
g = [-1, - 2]
h = x ? -1 : - 2
i = ! a
j = a * -b
k = foo(-1)
`,
  },
  {
    name: "for-splat",
    src: `a = [for x in var.list: x.name if x.enabled]
b = {for k,v in var.map: k=>v...}
c = var.list[*].id
d = var.list.*.id
e = [for x in [1,2]: x]
f = [ for   s   in   var.l   :   upper(s) ]
g = aws_instance.web[0].id
h = var.m["key"]
i = foo[*]
`,
  },
  {
    name: "templates",
    src: `a = "hello \${ var.name }!"
b = "\${var.a}\${var.b}"
c = "%{ if var.x }yes%{ else }no%{ endif }"
d = "%{for s in var.l}\${s},%{endfor}"
e = "\${ {a=1} }"
f = "$\${not}"
g = "\${~ var.x ~}"
`,
  },
  {
    name: "interpolation-unwrap",
    src: `a = "\${var.x}"
b = "\${ var.x }"
c = "\${var.x} "
d = "\${var.x}\${var.y}"
e = "\${foo("\${bar}")}"
f = "\${
var.x
}"
g = "\${var.a ? "x" : "y"}"
h = "\${(var.a)}"
i = "\${a.b[0]}"
block {
  j = "\${var.j}"
  obj = { k = "\${var.k}" }
}
`,
  },
  {
    name: "interpolation-unwrap-multiline",
    src: `a = "\${var.cond
? 1
: 2}"
b = "\${(var.cond
? 1
: 2)}"
`,
  },
  {
    name: "variable-types",
    src: `variable "a" {
type = "string"
}
variable "b" {
type = "list"
}
variable "c" {
type = "map"
}
variable "d" {
type = list
}
variable "e" {
type = map
}
variable "f" {
type = set
}
variable "g" {
type = list(string)
}
variable "h" {
type = "bool"
}
other "x" {
type = list
}
variable "nested" {
validation {
type = list
}
}
type = "string"
`,
  },
  {
    name: "labels",
    src: `resource aws_instance web {
}
resource "a" /* c1 */ "b" /* c2 */ {
}
data /* before */ "x" "y" {}
module "a\\u0041" {}
thing "a$\${b}" "tab\\there" {}
`,
  },
  {
    name: "labels-dollar-percent",
    src: 'a "$" "z" {}\nb "%" {}\nc "$${" {}\nd "%%{" {}\ne "a$" "z" {}\nf "$$" {}\ng "x%y" "z" {}\nh "$${x}" {}\ni "" "z" {}\n',
  },
  { name: "labels-escapes", src: 'a "tab\\there" "q\\"uote" "back\\\\slash" {}\nb "nl\\nx" "\\u00e9" "\\U0001F600" {}\n' },
  { name: "labels-nonprintable", src: 'a "x\\u00a0y" "z\\u200dw" "\\u0007" {}\n' },
  { name: "labels-unicode", src: 'resource "caf\u0065\u0301" "x" {}\nr "\u00e9" {}\n' },
  { name: "function-calls", src: 'a = foo( 1 , 2 )\nb = foo (1)\nc = provider::aws::arn_parse("x")\nd = f(x...)\ne = f(x ...)\nf = upper ("a")\n' },
  {
    name: "deep-indent-recovery",
    src: `a = [[[
1
]]]
b = [[
2],
]
c = {
d = [{
e = 1
}]
}
`,
  },
  {
    name: "unicode-alignment",
    src: `ä = 1
日本語 = 2
x = 4
é = 5
`,
    file: "main.tfvars",
  },
  {
    name: "tfvars",
    src: `region="us-east-1"
instance_count=3
tags={
Name="x"
Env="dev"
}
list=["a","b"]
`,
    file: "terraform.tfvars",
  },
  {
    name: "tftest",
    src: `run "test" {
command=plan
assert {
condition=var.x==1
error_message="bad"
}
}
`,
    file: "main.tftest.hcl",
  },
  { name: "tofu-extension", src: 'resource "a" "b" {\nx=1\n}\n', file: "main.tofu" },
  {
    name: "conditional-in-object",
    src: `locals {
x = {
for k, v in var.m : k => v
if v != null
}
y = var.a != null ? var.a : {
default = true
}
}
`,
  },
  {
    name: "mixed-brackets-same-line",
    src: `x = merge({
a = 1
}, {
b = 2
})
y = [for v in var.l : {
name = v
}]
`,
  },
  {
    name: "attribute-after-block-close",
    src: `a {
b = 1 }
c = 2
`,
  },
  { name: "numbers", src: "a = 1.5e10\nb = 0.1\nc = 1e-5\nd = 123456789012345678901234567890\n" },
  { name: "index-legacy", src: "a = foo.0.bar\nb = foo[0][1]\nc = foo[\"x\"].y\n" },
  { name: "brace-in-template-interp", src: 'a = "${ {for k in x: k=>1} }"\n' },
  { name: "in-keyword-tuple", src: "a = [for x in[1]: x]\nb = [for x in [foo]: x]\nc = {for k, v in{a=1}: k=>v}\n" },
  {
    name: "unwrap-edges",
    src: `a = /* c */ "\${x}"
b = "\${x}" # trailing
c = "\${"\${x}"}"
d = { b = "\${x}" }
e = "\${x /* c */}"
f = ["\${x}"]
g = "\${x}"   // aligned
hh = "\${ x }"
`,
  },
  {
    name: "heredoc-multiline-interp",
    src: `x = <<EOT
start \${
  foo(
    1,
  2)
}
EOT
y = 1
`,
  },
  {
    name: "minus-bang-variants",
    src: `a = (b) -1
c = x[0] -1
d = {a=1}.a -1
e = !!a
f = ! b
g = a - - b
h = [for x in y: -x]
i = a ? - 1 : - 2
j = "s" == - 1
`,
  },
  {
    name: "index-spacing",
    src: "a = b[ 0 ]\nc = d [0]\ne = f()[0]\ng = (h) [0]\ni = j.k [\"l\"]\nm = [1] [0]\nn = 1 [0]\n",
  },
  {
    name: "template-control-strip",
    src: `a = <<EOT
%{~ for x in y ~}
  \${x}
%{~ endfor ~}
EOT
b = "%{ if a }\${ b }%{ endif }"
`,
  },
  {
    name: "long-chain-and-comment-lines",
    src: `locals {
  a = 1
  # comment
  bbbbbbbb = 2
  c = 3 # x
  dd = 4 # yy
  // z
  eee = 5
}
`,
  },
  {
    name: "multiple-equals",
    src: "a = b == c\nbbbb = { x = 1 }\ncc = {for k, v in m : k => v if v == 1}\n",
  },
  {
    name: "one-line-block-comment",
    src: "a { b = 1 } # c\nccc { } // d\nx = 1 # e\n",
  },
  {
    name: "ellipsis-and-namespaces",
    src: "a = { for k, v in m : v => k ... }\nb = provider :: aws :: f(1)\nc = f(a, b ...)\n",
  },
  {
    name: "object-colon-keys",
    src: "a = {\nk: 1\nlong_key : 2\n\"q\" : 3\n}\n",
  },
  {
    name: "tabs-and-mixed-indent",
    src: "a {\n\t  b {\n  \t\tc = 1\n\t}\n   }\n",
  },
  {
    name: "block-close-same-line-as-attr-brackets",
    src: "x = [\n  1,\n  2]\ny = {\n  a = 1}\nz = 3\n",
  },
  { name: "syntax-error", src: "a = \nb = 1\n" },
  { name: "syntax-error-unclosed", src: "block {\n  a = 1\n" },
  { name: "syntax-error-bad-char", src: "a = 1;\n" },
];
