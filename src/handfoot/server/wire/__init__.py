"""The JSON the server speaks: protocol messages (sent and received), their shapes, encoding."""
