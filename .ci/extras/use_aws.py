"""Extra `aws`: AmazonKendraRetriever on a real boto3 client, its calls answered by botocore's Stubber."""

import boto3
from botocore.stub import Stubber

from combinators.integrations.aws import AmazonKendraRetriever

client = boto3.client("kendra", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
index = "0123abcd-0123-abcd-0123-0123456789ab"
item = {
    "Id": "r1",
    "DocumentId": "d1",
    "DocumentTitle": "Lamp",
    "Content": "Lit at dusk.",
    "DocumentURI": "https://e/1",
}
with Stubber(client) as stub:
    stub.add_response(
        "retrieve", {"QueryId": "q", "ResultItems": [item]}, {"IndexId": index, "QueryText": "lamp", "PageSize": 10}
    )
    documents = AmazonKendraRetriever(index_id=index, client=client).invoke("lamp")
assert [d.metadata["title"] for d in documents] == ["Lamp"], documents
print("aws:", documents[0].page_content.splitlines()[0])
