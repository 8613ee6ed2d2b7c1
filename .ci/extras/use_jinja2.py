"""Extra `jinja2`: a sandboxed jinja2 prompt template."""

from combinators.prompts import PromptTemplate

prompt = PromptTemplate.from_template("{% for w in words %}{{ w }} {% endfor %}", template_format="jinja2")
text = prompt.format(words=["fog", "at", "sea"])
assert text == "fog at sea ", text
print("jinja2:", text)
